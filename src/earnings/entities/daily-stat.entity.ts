import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { integerTransformer, MicrosColumn, RefColumn } from '@/database/columns';

/**
 * Daily roll-up per (UTC day, model, campaign), kept up to date in the same transaction as
 * the events it counts, so reports read a few rows instead of millions of impressions.
 */
@Entity('daily_stats')
@Index('idx_daily_stats_publisher_day', ['publisherId', 'day'])
@Index('idx_daily_stats_campaign_day', ['campaignId', 'day'])
export class DailyStat {
  @PrimaryColumn({ type: 'varchar', length: 10 }) day: string;
  @PrimaryColumn({ name: 'model_id', type: 'varchar', length: 36 }) modelId: string;
  @PrimaryColumn({ name: 'campaign_id', type: 'varchar', length: 36 }) campaignId: string;
  @RefColumn('publisher_id') publisherId: string;
  @Column({ type: 'bigint', transformer: integerTransformer }) impressions: number;
  @Column({ type: 'bigint', transformer: integerTransformer }) clicks: number;
  @Column({ name: 'invalid_clicks', type: 'bigint', transformer: integerTransformer })
  invalidClicks: number;
  @MicrosColumn('spend_micros') spendMicros: number;
  @MicrosColumn('earnings_micros') earningsMicros: number;
  /** Test keys' traffic, counted apart: never in the billable counters above. */
  @Column({
    name: 'test_impressions',
    type: 'bigint',
    default: 0,
    transformer: integerTransformer,
  })
  testImpressions: number;
  @Column({ name: 'test_clicks', type: 'bigint', default: 0, transformer: integerTransformer })
  testClicks: number;
  /** Impressions whose ad was seen on screen (`POST /api/ad-views/…`), test keys' apart. */
  @Column({
    name: 'viewed_impressions',
    type: 'bigint',
    default: 0,
    transformer: integerTransformer,
  })
  viewedImpressions: number;
  @Column({
    name: 'test_viewed_impressions',
    type: 'bigint',
    default: 0,
    transformer: integerTransformer,
  })
  testViewedImpressions: number;
}
