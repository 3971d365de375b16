import { Column, Entity, Index } from 'typeorm';
import { IdColumn, MicrosColumn, RefColumn, TimestampColumn } from '@/database/columns';

/**
 * campaign_spend: what a billed click cost the campaign; publisher_earnings and
 * platform_revenue: how that spend was split. For every click the two credits add up to
 * the spend exactly.
 */
export type LedgerAccount = 'campaign_spend' | 'publisher_earnings' | 'platform_revenue';

@Entity('ledger_entries')
@Index('idx_ledger_publisher_created', ['publisherId', 'createdAt'])
@Index('idx_ledger_campaign_created', ['campaignId', 'createdAt'])
@Index('idx_ledger_click', ['clickId'])
export class LedgerEntry {
  @IdColumn() id: string;
  @TimestampColumn('created_at') createdAt: Date;
  @RefColumn('click_id') clickId: string;
  @Column({ type: 'varchar', length: 24 }) account: LedgerAccount;
  @RefColumn('campaign_id') campaignId: string;
  @RefColumn('publisher_id') publisherId: string;
  @RefColumn('model_id') modelId: string;
  @MicrosColumn('amount_micros') amountMicros: number;
}
