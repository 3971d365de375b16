import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { sqlDatetime } from '@/common/clock';
import { TableRows } from '@/database/statements';
import { LedgerEntry } from './entities/ledger-entry.entity';

const LEDGER_ENTRIES = new TableRows<LedgerEntry>('ledger_entries', {
  id: (e) => e.id,
  created_at: (e) => sqlDatetime(e.createdAt),
  click_id: (e) => e.clickId,
  account: (e) => e.account,
  campaign_id: (e) => e.campaignId,
  publisher_id: (e) => e.publisherId,
  model_id: (e) => e.modelId,
  amount_micros: (e) => e.amountMicros,
});

/** The one place that writes `ledger_entries`. */
@Injectable()
export class LedgerRepository {
  /** One statement for a batch's entries, in the caller's transaction. */
  async insert(manager: EntityManager, entries: LedgerEntry[]): Promise<void> {
    if (entries.length === 0) return;
    const { sql, parameters } = LEDGER_ENTRIES.insert(entries);
    await manager.query(sql, parameters);
  }
}
