import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { EntityManager, Repository } from 'typeorm';
import { sqlDatetime } from '@/common/clock';
import { dialectOf } from '@/database/dialect';
import { transactionWithRetry } from '@/database/sql';
import { type Statement, TableRows } from '@/database/statements';
import { Conversion } from './entities/conversion.entity';

const CONVERSIONS = new TableRows<Conversion>('conversions', {
  id: (r) => r.id,
  advertiser_id: (r) => r.advertiserId,
  campaign_id: (r) => r.campaignId,
  click_id: (r) => r.clickId,
  impression_id: (r) => r.impressionId,
  publisher_id: (r) => r.publisherId,
  model_id: (r) => r.modelId,
  event: (r) => r.event,
  event_id: (r) => r.eventId,
  value_micros: (r) => r.valueMicros,
  currency: (r) => r.currency,
  occurred_at: (r) => sqlDatetime(r.occurredAt),
  click_at: (r) => sqlDatetime(r.clickAt),
  received_at: (r) => sqlDatetime(r.receivedAt),
  source: (r) => r.source,
});

/** The conversions table. */
@Injectable()
export class ConversionsRepository {
  constructor(@InjectRepository(Conversion) private readonly conversions: Repository<Conversion>) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return transactionWithRetry(this.conversions.manager, work);
  }

  /**
   * One INSERT of the rows, skipping those whose (advertiser, event id) is stored already:
   * the unique index decides between concurrent senders of one event, so none fails.
   */
  async insertNew(manager: EntityManager, rows: Conversion[]): Promise<void> {
    if (rows.length === 0) return;
    const { sql, parameters } = CONVERSIONS.insert(rows);
    const skip =
      dialectOf(manager) === 'mysql'
        ? 'ON DUPLICATE KEY UPDATE id = id'
        : 'ON CONFLICT (advertiser_id, event_id) DO NOTHING';
    await manager.query(`${sql} ${skip}`, parameters);
  }

  /**
   * The stored conversion id of each of these event ids of the advertiser, by event id. On
   * MySQL a locking read, so it sees a concurrent sender's row that the insert waited for.
   */
  async idsByEvent(
    manager: EntityManager,
    advertiserId: string,
    eventIds: string[],
  ): Promise<Map<string, string>> {
    const unique = [...new Set(eventIds)];
    if (unique.length === 0) return new Map();
    const lock = dialectOf(manager) === 'mysql' ? ' FOR UPDATE' : '';
    const rows: { id: string; event_id: string }[] = await manager.query(
      `SELECT id, event_id FROM conversions
        WHERE advertiser_id = ? AND event_id IN (${unique.map(() => '?').join(', ')})${lock}`,
      [advertiserId, ...unique],
    );
    return new Map(rows.map((row) => [row.event_id, row.id]));
  }

  /** Sends another module's statement (the roll-up) in this transaction. */
  async send(manager: EntityManager, statement: Statement | null): Promise<void> {
    if (statement) await manager.query(statement.sql, statement.parameters);
  }

  countByCampaign(campaignId: string): Promise<number> {
    return this.conversions.countBy({ campaignId });
  }
}
