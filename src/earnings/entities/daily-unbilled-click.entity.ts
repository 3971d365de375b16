import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { integerTransformer, RefColumn } from '@/database/columns';

/**
 * The publisher and model id of a forged follow's roll-ups (`bad_signature`,
 * `unknown_impression`): it names no real impression, so only its link's campaign is known.
 * Campaign reports count these rows; publisher and model reports and `/api/stats` never do.
 */
export const UNKNOWN_SOURCE = '';

/**
 * Unbilled clicks per (UTC day, model, campaign, reason), written in the click's own
 * transaction beside `daily_stats`: for every roll-up row, `invalid_clicks` is the sum of its
 * reasons here. Like `daily_stats` it outlives the raw clicks (`RETENTION_DAYS`).
 */
@Entity('daily_unbilled_clicks')
@Index('idx_daily_unbilled_publisher_day', ['publisherId', 'day'])
@Index('idx_daily_unbilled_campaign_day', ['campaignId', 'day'])
export class DailyUnbilledClick {
  @PrimaryColumn({ type: 'varchar', length: 10 }) day: string;
  @PrimaryColumn({ name: 'model_id', type: 'varchar', length: 36 }) modelId: string;
  @PrimaryColumn({ name: 'campaign_id', type: 'varchar', length: 36 }) campaignId: string;
  /** The click's invalid reason, or `over_budget` for a valid click its budget could not pay. */
  @PrimaryColumn({ type: 'varchar', length: 32 }) reason: string;
  @RefColumn('publisher_id') publisherId: string;
  @Column({ type: 'bigint', transformer: integerTransformer }) clicks: number;
}
