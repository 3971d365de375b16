import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager, In } from 'typeorm';
import { sqlDatetime } from '@/common/clock';
import { dialectOf } from '@/database/dialect';
import { type Statement, TableRows, updateByIds } from '@/database/statements';
import { Impression } from './entities/impression.entity';

const IMPRESSIONS = new TableRows<Impression>('impressions', {
  id: (r) => r.id,
  created_at: (r) => sqlDatetime(r.createdAt),
  model_id: (r) => r.modelId,
  publisher_id: (r) => r.publisherId,
  campaign_id: (r) => r.campaignId,
  api_key_id: (r) => r.apiKeyId,
  bid_micros: (r) => r.bidMicros,
  revenue_share_ppm: (r) => r.revenueSharePpm,
  country: (r) => r.country,
  device: (r) => r.device,
  user_location: (r) => r.userLocation,
  user_device_info: (r) => r.userDeviceInfo,
  keywords: (r) => r.keywords,
  conversation: (r) => r.conversation,
  clicked_at: (r) => (r.clickedAt === null ? null : sqlDatetime(r.clickedAt)),
  // A number: SQLite's driver binds no booleans.
  test: (r) => (r.test ? 1 : 0),
  relevance_ppm: (r) => r.relevancePpm,
  matched: (r) => r.matched,
  campaign_targets: (r) => r.campaignTargets,
});

/** The impressions table's columns in insert order; the benchmark's raw baseline uses them too. */
export const IMPRESSION_COLUMNS: string[] = [...IMPRESSIONS.columns];

/**
 * The impressions table's queries: the writer's batch insert, the click path's claim and
 * the receipt look-up.
 */
@Injectable()
export class ImpressionsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** A batch's one INSERT, for the writer to commit with its roll-up. */
  insertStatement(rows: Impression[]): Statement {
    return IMPRESSIONS.insert(rows);
  }

  /**
   * The impressions with these ids, in the caller's transaction; locked on MySQL (in id
   * order, so concurrent batches cannot deadlock): a second batch with a click on the same
   * impression waits, then sees it clicked. SQLite has one writer at a time anyway.
   */
  async lockForClicks(manager: EntityManager, ids: string[]): Promise<Map<string, Impression>> {
    if (ids.length === 0) return new Map();
    const found = await manager.find(Impression, {
      where: { id: In([...ids].sort()) },
      order: { id: 'ASC' },
      ...(dialectOf(manager) === 'mysql' ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
    return new Map(found.map((impression) => [impression.id, impression]));
  }

  /** One impression, for a receipt; null once purged (or never served). */
  findById(id: string): Promise<Impression | null> {
    return this.dataSource.getRepository(Impression).findOneBy({ id });
  }

  /** Sets each impression's clicked_at, in one statement in the caller's transaction. */
  async markClicked(manager: EntityManager, clickedAt: Map<string, Date>): Promise<void> {
    if (clickedAt.size === 0) return;
    const { sql, parameters } = updateByIds('impressions', [...clickedAt.keys()], {
      clicked_at: (id) => sqlDatetime(clickedAt.get(id)!),
    });
    await manager.query(sql, parameters);
  }
}
