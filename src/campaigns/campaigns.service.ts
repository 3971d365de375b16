import { Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, FindOneOptions, Repository } from 'typeorm';
import { normaliseKeyword } from '@/ads/matching/normalise';
import type { Device } from '@/ads/matching/matching.types';
import { Clock, sqlDatetime, utcDay } from '@/common/clock';
import { ProblemException } from '@/common/problem';
import { newId } from '@/database/columns';
import { isMysql, transactionWithRetry } from '@/database/sql';
import { AdvertisersService } from './advertisers.service';
import { auditSnapshot, CampaignChanges, fieldChanges } from './campaign-audit';
import {
  CampaignChangeListener,
  CampaignChangeNotifier,
  CampaignExhaustedListener,
} from './campaign-change-notifier.service';
import { assertCampaignRules, assertChangeable } from './campaign-rules';
import {
  type BudgetColumns,
  type BudgetState,
  budgetFromRow,
  canPay,
  charge,
} from './campaign-budget';
import { toCampaignDto } from './dto/campaign.dto';
import type { Page } from '@/common/dto/page-query.dto';
import { Advertiser } from './entities/advertiser.entity';
import { CampaignAuditEntry } from './entities/campaign-audit-entry.entity';
import { Campaign, CampaignStatus } from './entities/campaign.entity';

export interface NewCampaign {
  advertiserId: string;
  name: string;
  text: string;
  imageUrl?: string | null;
  targetUrl: string;
  /** Already normalised. */
  keywords: string[];
  bidMicros: number;
  budgetTotalMicros?: number | null;
  budgetDailyMicros?: number | null;
  startsAt?: Date | null;
  endsAt?: Date | null;
  countries?: string[];
  devices?: Device[];
  status?: CampaignStatus;
}

/** What the click path needs of a campaign, served from memory (the ad index) when it can. */
export interface ServedCampaign {
  id: string;
  targetUrl: string;
}

export interface CampaignFilter {
  status?: CampaignStatus;
  advertiserId?: string;
  keyword?: string;
}

/**
 * Campaigns and the rules of changing them. Every change goes through here, is audited in
 * the same transaction, and tells the listeners (the ad index) before the call returns.
 */
@Injectable()
export class CampaignsService {
  private readonly logger = new Logger(CampaignsService.name);

  constructor(
    @InjectRepository(Campaign) private readonly campaigns: Repository<Campaign>,
    @InjectRepository(CampaignAuditEntry) private readonly audit: Repository<CampaignAuditEntry>,
    private readonly advertisers: AdvertisersService,
    private readonly changes: CampaignChangeNotifier,
    private readonly clock: Clock,
  ) {}

  /** Registers a listener that runs, awaited, after every change made through this service. */
  onChange(listener: CampaignChangeListener): void {
    this.changes.onChange(listener);
  }

  notifyChanged(): Promise<void> {
    return this.changes.notifyChanged();
  }

  /** Registers a listener told (here and on other instances) when a campaign's budget runs out. */
  onExhausted(listener: CampaignExhaustedListener): void {
    this.changes.onExhausted(listener);
  }

  notifyExhausted(campaignId: string): Promise<void> {
    return this.changes.notifyExhausted(campaignId);
  }

  private servedLookup: (id: string) => ServedCampaign | undefined = () => undefined;

  /** The ad index registers what it serves, so clicks need no database read to redirect. */
  registerServed(lookup: (id: string) => ServedCampaign | undefined): void {
    this.servedLookup = lookup;
  }

  /** The campaign as the ad index currently serves it; undefined when it is not served. */
  served(id: string): ServedCampaign | undefined {
    return this.servedLookup(id);
  }

  createAdvertiser(name: string, contactEmail: string | null = null): Promise<Advertiser> {
    return this.advertisers.create(name, contactEmail);
  }

  /** @param actorId the operator who creates it; null when the service itself does. */
  async createCampaign(input: NewCampaign, actorId: string | null = null): Promise<Campaign> {
    if (!(await this.advertisers.findById(input.advertiserId))) {
      throw ProblemException.validation([
        { field: 'advertiser_id', message: 'advertiser_id names no advertiser' },
      ]);
    }
    const now = new Date();
    const campaign = this.campaigns.create({
      id: newId(),
      advertiserId: input.advertiserId,
      name: input.name,
      text: input.text,
      imageUrl: input.imageUrl ?? null,
      targetUrl: input.targetUrl,
      keywords: input.keywords,
      countries: input.countries ?? [],
      devices: input.devices ?? [],
      bidMicros: input.bidMicros,
      budgetTotalMicros: input.budgetTotalMicros ?? null,
      budgetDailyMicros: input.budgetDailyMicros ?? null,
      spentMicros: 0,
      spentTodayMicros: 0,
      spentDay: null,
      startsAt: input.startsAt ?? null,
      endsAt: input.endsAt ?? null,
      status: input.status ?? 'active',
      createdAt: now,
      updatedAt: now,
    });
    assertCampaignRules(campaign);
    await transactionWithRetry(this.campaigns.manager, async (manager) => {
      await manager.insert(Campaign, campaign);
      await manager.insert(CampaignAuditEntry, {
        ...auditEntry(campaign.id, actorId, now),
        action: 'created',
        newValue: auditSnapshot(toCampaignDto(campaign, utcDay(now))),
      });
    });
    await this.notifyChanged();
    return campaign;
  }

  /**
   * Applies an operator's changes: the cross-field rules hold for the result, an archived
   * campaign refuses any change (409), and each changed field gets an audit row. Spend
   * columns are never written here, so a concurrent click's charge is never overwritten.
   */
  async updateCampaign(
    id: string,
    changes: CampaignChanges,
    actorId: string | null = null,
  ): Promise<Campaign> {
    const now = new Date();
    const today = utcDay(now);
    const outcome = await transactionWithRetry(this.campaigns.manager, async (manager) => {
      const current = await manager.findOne(Campaign, { where: { id }, ...forUpdate(manager) });
      if (!current) throw campaignNotFound();
      assertChangeable(current);
      const next: Campaign = { ...current, ...changes, updatedAt: now };
      assertCampaignRules(next);
      const changed = fieldChanges(toCampaignDto(current, today), toCampaignDto(next, today));
      if (changed.length === 0) return { campaign: current, changed: false };
      await manager.update(Campaign, { id }, { ...changes, updatedAt: now });
      await manager.insert(
        CampaignAuditEntry,
        changed.map((change) => ({
          ...auditEntry(id, actorId, now),
          action: 'updated' as const,
          field: change.field,
          oldValue: change.oldValue,
          newValue: change.newValue,
        })),
      );
      return { campaign: next, changed: true };
    });
    if (outcome.changed) await this.notifyChanged();
    return outcome.campaign;
  }

  async setStatus(
    campaignId: string,
    status: CampaignStatus,
    actorId: string | null = null,
  ): Promise<void> {
    await this.updateCampaign(campaignId, { status }, actorId);
  }

  findById(id: string): Promise<Campaign | null> {
    return this.campaigns.findOneBy({ id });
  }

  /** Newest first. */
  async list(filter: CampaignFilter, page: Page): Promise<{ items: Campaign[]; total: number }> {
    const query = this.campaigns
      .createQueryBuilder('campaign')
      .orderBy('campaign.createdAt', 'DESC')
      .addOrderBy('campaign.id', 'DESC')
      .offset(page.offset)
      .limit(page.perPage);
    if (filter.status) query.andWhere('campaign.status = :status', { status: filter.status });
    if (filter.advertiserId) {
      query.andWhere('campaign.advertiserId = :advertiserId', {
        advertiserId: filter.advertiserId,
      });
    }
    if (filter.keyword !== undefined) {
      // Keywords are stored as a JSON array, so a quoted element matches whole keywords only.
      const element = JSON.stringify(normaliseKeyword(filter.keyword));
      query.andWhere("campaign.keywords LIKE :element ESCAPE '!'", {
        element: `%${element.replace(/[!%_]/g, '!$&')}%`,
      });
    }
    const [items, total] = await query.getManyAndCount();
    return { items, total };
  }

  /** Newest change first; the fields of one change in their usual order. */
  async auditOf(
    campaignId: string,
    page: Page,
  ): Promise<{ items: CampaignAuditEntry[]; total: number }> {
    const [items, total] = await this.audit.findAndCount({
      where: { campaignId },
      order: { createdAt: 'DESC', id: 'ASC' },
      skip: page.offset,
      take: page.perPage,
    });
    return { items, total };
  }

  /**
   * Charges clicks to their campaigns in the caller's transaction, in the given order, each
   * only if the campaign is active (not paused or archived now, at click time) and its total
   * and daily budgets still allow its bid. The campaigns' rows are locked (MySQL, in id
   * order) before they are read, so concurrent batches serialise on them and can never
   * overspend; one UPDATE writes the result.
   * @returns per charge what became of it, and the campaigns that can no longer pay their
   *   current bid (the ad index must stop serving them).
   */
  async chargeClicks(
    manager: EntityManager,
    charges: ClickCharge[],
  ): Promise<{ results: ChargeResult[]; exhausted: string[] }> {
    const ids = [...new Set(charges.map((c) => c.campaignId))].sort();
    if (ids.length === 0) return { results: [], exhausted: [] };
    const rows: BudgetRow[] = await manager.query(
      `SELECT id, status, ends_at, bid_micros, budget_total_micros, budget_daily_micros,
              spent_micros, spent_today_micros, spent_day
         FROM campaigns
        WHERE id IN (${ids.map(() => '?').join(', ')})
        ORDER BY id${isMysql(manager) ? ' FOR UPDATE' : ''}`,
      ids,
    );
    const budgets = new Map(rows.map((row) => [row.id, budgetFromRow(row)]));
    const active = new Set(rows.filter((row) => row.status === 'active').map((row) => row.id));
    const endsAt = new Map(rows.map((row) => [row.id, instantOf(row.ends_at)]));
    const changed = new Set<string>();
    const results = charges.map(({ campaignId, bidMicros, at }): ChargeResult => {
      if (!active.has(campaignId)) return 'campaign_inactive';
      // An ad served just before its campaign ended earns nothing for a click after the end.
      const end = endsAt.get(campaignId);
      if (end !== null && end !== undefined && at.getTime() > end) return 'campaign_inactive';
      const after = charge(budgets.get(campaignId)!, bidMicros, utcDay(at));
      if (!after) return 'over_budget';
      budgets.set(campaignId, after);
      changed.add(campaignId);
      return 'billed';
    });
    const now = this.clock.now();
    if (changed.size > 0) {
      // One statement for the whole batch (a round trip per campaign made batches slow).
      const ids = [...changed];
      const column = (value: (budget: BudgetState) => unknown) => ({
        sql: `CASE id ${ids.map(() => 'WHEN ? THEN ?').join(' ')} END`,
        parameters: ids.flatMap((id) => [id, value(budgets.get(id)!)]),
      });
      const spent = column((b) => b.spentMicros);
      const spentToday = column((b) => b.spentTodayMicros);
      const spentDay = column((b) => b.spentDay);
      await manager.query(
        `UPDATE campaigns
            SET spent_micros = ${spent.sql}, spent_today_micros = ${spentToday.sql},
                spent_day = ${spentDay.sql}, updated_at = ?
          WHERE id IN (${ids.map(() => '?').join(', ')})`,
        [
          ...spent.parameters,
          ...spentToday.parameters,
          ...spentDay.parameters,
          sqlDatetime(now),
          ...ids,
        ],
      );
    }
    const today = utcDay(now);
    const exhausted = rows
      .filter((row) => !canPay(budgets.get(row.id)!, Number(row.bid_micros), today))
      .map((row) => row.id);
    for (const id of exhausted) this.logger.log(`campaign ${id} is out of budget`);
    return { results, exhausted };
  }
}

/** One click's charge: the bid in force when its ad was served, at the click's time. */
export interface ClickCharge {
  campaignId: string;
  bidMicros: number;
  at: Date;
}

/** billed; over_budget: the budgets could not pay; campaign_inactive: paused or archived. */
export type ChargeResult = 'billed' | 'over_budget' | 'campaign_inactive';

interface BudgetRow extends BudgetColumns {
  id: string;
  status: CampaignStatus;
  /** A Date from mysql2, a UTC `YYYY-MM-DD HH:MM:SS.mmm` string from SQLite, or null. */
  ends_at: Date | string | null;
  bid_micros: string | number;
}

/** Epoch milliseconds of a DATETIME column as raw SQL returns it. */
function instantOf(value: Date | string | null): number | null {
  if (value === null) return null;
  return value instanceof Date ? value.getTime() : Date.parse(`${value.replace(' ', 'T')}Z`);
}

export const campaignNotFound = (): ProblemException =>
  ProblemException.notFound('campaign_not_found', 'No campaign has this id.');

/** MySQL locks the row so that concurrent edits audit against what they replace; SQLite
 * serialises writers anyway and has no row locks. */
function forUpdate(manager: EntityManager): Pick<FindOneOptions<Campaign>, 'lock'> {
  return isMysql(manager) ? { lock: { mode: 'pessimistic_write' } } : {};
}

function auditEntry(campaignId: string, actorId: string | null, at: Date) {
  return {
    id: newId(),
    campaignId,
    actorId,
    field: null,
    oldValue: null,
    newValue: null,
    createdAt: at,
  };
}
