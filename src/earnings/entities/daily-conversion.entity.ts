import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { integerTransformer, MicrosColumn, RefColumn } from '@/database/columns';

/**
 * Which day a conversion counts on: its click's UTC day (`click`: what a campaign's day
 * earned, late conversions included) or the UTC day it arrived (`arrival`: what came in).
 */
export type ConversionBasis = 'click' | 'arrival';

/**
 * Accepted conversions per (basis, UTC day, model, campaign, event), each counted twice, once
 * per basis, in the same transaction as the conversion's own row, so reports count every
 * accepted conversion exactly once on each basis.
 */
@Entity('daily_conversions')
@Index('idx_daily_conversions_publisher_day', ['publisherId', 'day'])
@Index('idx_daily_conversions_campaign_day', ['campaignId', 'day'])
export class DailyConversion {
  @PrimaryColumn({ type: 'varchar', length: 8 }) basis: ConversionBasis;
  @PrimaryColumn({ type: 'varchar', length: 10 }) day: string;
  @PrimaryColumn({ name: 'model_id', type: 'varchar', length: 64 }) modelId: string;
  @PrimaryColumn({ name: 'campaign_id', type: 'varchar', length: 36 }) campaignId: string;
  @PrimaryColumn({ type: 'varchar', length: 64 }) event: string;
  @RefColumn('publisher_id') publisherId: string;
  @Column({ type: 'bigint', transformer: integerTransformer }) conversions: number;
  /** The value of the USD conversions only: other currencies are counted, not summed. */
  @MicrosColumn('value_micros') valueMicros: number;
}
