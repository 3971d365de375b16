import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, type Repository } from 'typeorm';
import { sqlDatetime } from '@/common/clock';
import { type Statement, TableRows } from '@/database/statements';
import { timestampOf } from '@/database/columns';
import { Click, type ClickStatus } from './entities/click.entity';

const CLICKS = new TableRows<Click>('clicks', {
  id: (r) => r.id,
  created_at: (r) => sqlDatetime(r.createdAt),
  impression_id: (r) => r.impressionId,
  campaign_id: (r) => r.campaignId,
  model_id: (r) => r.modelId,
  publisher_id: (r) => r.publisherId,
  status: (r) => r.status,
  invalid_reason: (r) => r.invalidReason,
  cost_micros: (r) => r.costMicros,
  publisher_earnings_micros: (r) => r.publisherEarningsMicros,
  user_agent: (r) => r.userAgent,
  ip_hash: (r) => r.ipHash,
});

/** A click as a conversion is judged against it. */
export interface AttributedClick {
  id: string;
  at: Date;
  campaignId: string;
  impressionId: string | null;
  publisherId: string | null;
  modelId: string;
  status: ClickStatus;
  advertiserId: string;
  attributionWindowDays: number;
}

interface AttributionRow {
  id: string;
  created_at: Date | string;
  campaign_id: string;
  impression_id: string | null;
  publisher_id: string | null;
  model_id: string;
  status: ClickStatus;
  advertiser_id: string;
  attribution_window_days: number | string;
}

/** A stored click's outcome. */
export type StoredClick = Pick<Click, 'id' | 'status' | 'invalidReason'>;

/** The clicks table's writes and the click recorder's own reads of it. */
@Injectable()
export class ClicksRepository {
  constructor(@InjectRepository(Click) private readonly clicks: Repository<Click>) {}

  /** One statement for a batch's clicks, for the batch's transaction to send. */
  insertStatement(rows: Click[]): Statement {
    return CLICKS.insert(rows);
  }

  /**
   * What a conversion needs of these clicks (those stored), with their campaign's
   * advertiser and attribution window: one query for a whole batch of conversions.
   */
  async findForAttribution(ids: string[]): Promise<AttributedClick[]> {
    if (ids.length === 0) return [];
    const rows: AttributionRow[] = await this.clicks.query(
      `SELECT k.id, k.created_at, k.campaign_id, k.impression_id, k.publisher_id, k.model_id,
              k.status, c.advertiser_id, c.attribution_window_days
         FROM clicks k JOIN campaigns c ON c.id = k.campaign_id
        WHERE k.id IN (${ids.map(() => '?').join(', ')})`,
      ids,
    );
    return rows.map((row) => ({
      id: row.id,
      at: timestampOf(row.created_at),
      campaignId: row.campaign_id,
      impressionId: row.impression_id,
      publisherId: row.publisher_id,
      modelId: row.model_id,
      status: row.status,
      advertiserId: row.advertiser_id,
      attributionWindowDays: Number(row.attribution_window_days),
    }));
  }

  /** The outcomes of those of these clicks that are stored. */
  findOutcomes(ids: string[]): Promise<StoredClick[]> {
    return this.clicks.find({
      select: { id: true, status: true, invalidReason: true },
      where: { id: In(ids) },
    });
  }
}
