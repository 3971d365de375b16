import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { integerTransformer, RefColumn } from '@/database/columns';
import type { FillOutcome } from '../fill-outcomes';

/**
 * fetch-ads requests per (UTC day, model, outcome): `filled` or a no-fill reason. Counted in
 * memory on the hot path and added here every few seconds and at shutdown (FillStatsRecorder),
 * never a write per request; per day and model, requests are the sum of its rows.
 */
@Entity('daily_fill_stats')
@Index('idx_daily_fill_stats_publisher_day', ['publisherId', 'day'])
export class DailyFillStat {
  @PrimaryColumn({ type: 'varchar', length: 10 }) day: string;
  @PrimaryColumn({ name: 'model_id', type: 'varchar', length: 36 }) modelId: string;
  @PrimaryColumn({ type: 'varchar', length: 32 }) outcome: FillOutcome;
  @RefColumn('publisher_id') publisherId: string;
  @Column({ type: 'bigint', transformer: integerTransformer }) requests: number;
}
