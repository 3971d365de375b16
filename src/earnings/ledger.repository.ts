import { Injectable } from '@nestjs/common';
import { sqlDatetime } from '@/common/clock';
import { type Statement, TableRows } from '@/database/statements';
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
  /** One statement for a batch's entries, for the caller to send; null: none. */
  insertStatement(entries: LedgerEntry[]): Statement | null {
    return entries.length === 0 ? null : LEDGER_ENTRIES.insert(entries);
  }
}
