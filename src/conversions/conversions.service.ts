import { Injectable } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { CampaignPixels } from '@/campaigns/campaigns/campaign-pixel';
import { CampaignsService } from '@/campaigns/campaigns/campaigns.service';
import { Clock } from '@/common/clock';
import { unitsToMicros } from '@/common/money';
import { ProblemException } from '@/common/problem';
import { newId } from '@/database/columns';
import { EarningsService } from '@/earnings/earnings.service';
import { type AttributedClick, ClickAttributions } from '@/tracking/click-attributions.service';
import { ConversionsRepository } from './conversions.repository';
import {
  ConversionDto,
  type ConversionRejection,
  type ConversionResultDto,
  ConversionResultsDto,
  MAX_CONVERSIONS_PER_BATCH,
} from './dto/conversion.dto';
import type { Conversion, ConversionSource } from './entities/conversion.entity';

const DAY_MS = 24 * 60 * 60 * 1000;
/** How far in the future `occurred_at` may be: the sender's clock may run a little fast. */
const FUTURE_SLACK_MS = 5 * 60 * 1000;

/** One item on its way: its answer, once known, or the row it would insert. */
type Pending = { result: ConversionResultDto; row?: Conversion; eventId?: string };

/**
 * Conversions reported by advertisers, server to server or by pixel. A conversion counts
 * only for one of the advertiser's own valid clicks, inside its campaign's attribution
 * window, once per (advertiser, event id). A batch costs four queries whatever its size:
 * its clicks, then in one transaction an INSERT that skips stored event ids, the stored ids
 * of its event ids, and the daily roll-up of the conversions it inserted (earnings').
 */
@Injectable()
export class ConversionsService {
  constructor(
    private readonly conversions: ConversionsRepository,
    private readonly clicks: ClickAttributions,
    private readonly campaigns: CampaignsService,
    private readonly pixels: CampaignPixels,
    private readonly earnings: EarningsService,
    private readonly clock: Clock,
  ) {}

  /** `POST /api/conversions`: one conversion or `{ conversions: [...] }`. */
  async fromApi(advertiserId: string, body: unknown): Promise<ConversionResultsDto> {
    const batch = (body as { conversions?: unknown } | null)?.conversions;
    if (batch === undefined) return this.record(advertiserId, [body], 'api');
    if (!Array.isArray(batch) || batch.length < 1 || batch.length > MAX_CONVERSIONS_PER_BATCH) {
      throw ProblemException.validation([
        {
          field: 'conversions',
          message: `conversions must be a list of 1 to ${MAX_CONVERSIONS_PER_BATCH} conversions`,
        },
      ]);
    }
    return this.record(advertiserId, batch, 'api');
  }

  /** The pixel: records when everything holds, and never says why not (it answers a GIF). */
  async fromPixel(query: Record<string, unknown>): Promise<void> {
    const campaignId = this.pixels.campaignOf(query.c);
    if (!campaignId) return;
    const campaign = await this.campaigns.findById(campaignId);
    if (!campaign) return;
    const value =
      typeof query.value === 'string' && query.value !== '' ? Number(query.value) : undefined;
    const item = {
      click_id: query.click_id,
      event: query.event,
      // A page that sends no event id gets one: such a conversion is not idempotent.
      event_id: query.event_id || `pixel-${newId()}`,
      occurred_at: this.clock.now().toISOString(),
      ...(value === undefined ? {} : { value }),
      ...(query.currency ? { currency: query.currency } : {}),
    };
    await this.record(campaign.advertiserId, [item], 'pixel');
  }

  private async record(
    advertiserId: string,
    items: unknown[],
    source: ConversionSource,
  ): Promise<ConversionResultsDto> {
    const now = this.clock.now();
    const checked = items.map((item) => this.check(item, now));
    const clickIdOf = checked.map((c) => (c.dto ? this.clicks.clickIdOf(c.dto.click_id) : null));
    const clicks = await this.clicks.find(clickIdOf.filter((id): id is string => id !== null));
    const pending: Pending[] = checked.map(({ dto, detail }, i) => {
      if (!dto) return { result: rejected(eventIdOf(items[i]), 'validation_failed', detail) };
      const click = clickIdOf[i] ? clicks.get(clickIdOf[i]) : undefined;
      const code = rejection(dto, click, advertiserId);
      if (code) return { result: rejected(dto.event_id, code), eventId: dto.event_id };
      const row = conversionRow(dto, click!, advertiserId, now, source);
      return { result: { event_id: dto.event_id, status: 'accepted' }, row, eventId: dto.event_id };
    });
    // By event id, so that concurrent batches lock shared keys in one order.
    const rows = pending
      .flatMap((p) => (p.row ? [p.row] : []))
      .sort((a, b) => (a.eventId < b.eventId ? -1 : a.eventId > b.eventId ? 1 : 0));
    const eventIds = pending.flatMap((p) => (p.eventId === undefined ? [] : [p.eventId]));
    // The rows and their roll-up commit together: only the rows this call inserted (stored
    // under their own id) are counted, so a conversion is never lost nor counted twice.
    const stored = await this.conversions.transaction(async (manager) => {
      await this.conversions.insertNew(manager, rows);
      const ids = await this.conversions.idsByEvent(manager, advertiserId, eventIds);
      const inserted = rows.filter((row) => ids.get(row.eventId) === row.id);
      await this.conversions.send(manager, this.earnings.conversionsStatement(inserted));
      return ids;
    });
    return {
      results: pending.map(({ result, row, eventId }) => {
        const id = eventId === undefined ? undefined : stored.get(eventId);
        // Stored under another id: an earlier item, request or concurrent sender was first.
        if (id !== undefined && id !== row?.id) {
          return { event_id: eventId!, status: 'duplicate', conversion_id: id };
        }
        return row ? { ...result, conversion_id: row.id } : result;
      }),
    };
  }

  private check(item: unknown, now: Date): { dto?: ConversionDto; detail?: string } {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      return { detail: 'A conversion must be a JSON object.' };
    }
    const dto = plainToInstance(ConversionDto, item);
    const errors = validateSync(dto, { whitelist: true, stopAtFirstError: true });
    if (errors.length > 0) {
      return {
        detail: errors.map((e) => Object.values(e.constraints ?? {}).join('; ')).join('; '),
      };
    }
    if (Date.parse(dto.occurred_at) > now.getTime() + FUTURE_SLACK_MS) {
      return { detail: 'occurred_at must not be more than 5 minutes in the future' };
    }
    return { dto };
  }
}

function rejection(
  dto: ConversionDto,
  click: AttributedClick | undefined,
  advertiserId: string,
): ConversionRejection | null {
  // Another advertiser's click is answered as an unknown one: a key learns nothing of others.
  if (!click || click.advertiserId !== advertiserId) return 'click_not_found';
  // Invalid includes test-key clicks (`test`); over_budget clicks were valid, only unpaid.
  if (click.status === 'invalid') return 'click_invalid';
  const after = Date.parse(dto.occurred_at) - click.at.getTime();
  if (after < 0 || after > click.attributionWindowDays * DAY_MS) {
    return 'outside_attribution_window';
  }
  return null;
}

function conversionRow(
  dto: ConversionDto,
  click: AttributedClick,
  advertiserId: string,
  now: Date,
  source: ConversionSource,
): Conversion {
  return {
    id: newId(),
    advertiserId,
    campaignId: click.campaignId,
    clickId: click.id,
    impressionId: click.impressionId,
    publisherId: click.publisherId,
    modelId: click.modelId,
    event: dto.event,
    eventId: dto.event_id,
    valueMicros: dto.value === undefined ? null : unitsToMicros(dto.value),
    currency: dto.currency ?? 'USD',
    occurredAt: new Date(dto.occurred_at),
    clickAt: click.at,
    receivedAt: now,
    source,
  };
}

function rejected(
  eventId: string | null,
  code: ConversionRejection,
  detail?: string,
): ConversionResultDto {
  return { event_id: eventId, status: 'rejected', code, ...(detail ? { detail } : {}) };
}

function eventIdOf(item: unknown): string | null {
  const eventId = (item as { event_id?: unknown } | null)?.event_id;
  return typeof eventId === 'string' ? eventId.slice(0, 128) : null;
}
