import { Column, Entity, Index } from 'typeorm';
import { IdColumn, MicrosColumn, RefColumn, TimestampColumn } from '@/database/columns';

/** billed: paid by the campaign; over_budget: valid but the budget was spent; invalid: never billed. */
export type ClickStatus = 'billed' | 'over_budget' | 'invalid';

export type InvalidClickReason =
  'bad_signature' | 'unknown_impression' | 'mismatch' | 'duplicate' | 'expired' | 'bot';

/** Every follow of a tracking link, valid or not: the raw material of click reports. */
@Entity('clicks')
@Index('idx_clicks_campaign_created', ['campaignId', 'createdAt'])
@Index('idx_clicks_model_created', ['modelId', 'createdAt'])
@Index('idx_clicks_impression', ['impressionId'])
export class Click {
  @IdColumn() id: string;
  @TimestampColumn('created_at') createdAt: Date;
  @RefColumn('impression_id', { nullable: true }) impressionId: string | null;
  @RefColumn('campaign_id') campaignId: string;
  /** As given in the link; for an invalid click it may name no real model. */
  @Column({ name: 'model_id', type: 'varchar', length: 64 }) modelId: string;
  @RefColumn('publisher_id', { nullable: true }) publisherId: string | null;
  @Column({ type: 'varchar', length: 16 }) status: ClickStatus;
  @Column({ name: 'invalid_reason', type: 'varchar', length: 32, nullable: true })
  invalidReason: InvalidClickReason | null;
  @MicrosColumn('cost_micros') costMicros: number;
  @MicrosColumn('publisher_earnings_micros') publisherEarningsMicros: number;
  @Column({ name: 'user_agent', type: 'varchar', length: 512, nullable: true })
  userAgent: string | null;
}
