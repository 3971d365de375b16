import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { DailyStat } from '@/earnings/entities/daily-stat.entity';

/** A publisher's activity on one UTC day with one model. */
export interface DailyModelStat {
  day: string;
  modelId: string;
  impressions: number;
  clicks: number;
  earningsMicros: number;
  /** Test keys' traffic, never billed. */
  testImpressions: number;
  testClicks: number;
}

interface RawRow {
  day: string;
  model_id: string;
  impressions: string | number;
  clicks: string | number;
  earnings_micros: string | number;
  test_impressions: string | number;
  test_clicks: string | number;
}

/** Reads the `daily_stats` roll-ups: a few rows per day, whatever the number of events. */
@Injectable()
export class StatsRepository {
  constructor(@InjectRepository(DailyStat) private readonly stats: Repository<DailyStat>) {}

  /** Sums over campaigns, per day and model; served by the (publisher_id, day) index. */
  async perDayAndModel(
    publisherId: string,
    from: string,
    to: string,
    modelId?: string,
  ): Promise<DailyModelStat[]> {
    const query = this.stats
      .createQueryBuilder('s')
      .select('s.day', 'day')
      .addSelect('s.modelId', 'model_id')
      .addSelect('SUM(s.impressions)', 'impressions')
      .addSelect('SUM(s.clicks)', 'clicks')
      .addSelect('SUM(s.earningsMicros)', 'earnings_micros')
      .addSelect('SUM(s.testImpressions)', 'test_impressions')
      .addSelect('SUM(s.testClicks)', 'test_clicks')
      .where('s.publisherId = :publisherId', { publisherId })
      .andWhere('s.day BETWEEN :from AND :to', { from, to });
    if (modelId !== undefined) query.andWhere('s.modelId = :modelId', { modelId });
    const rows = await query
      .groupBy('s.day')
      .addGroupBy('s.modelId')
      .orderBy('s.day', 'ASC')
      .addOrderBy('s.modelId', 'ASC')
      .getRawMany<RawRow>();
    // MySQL returns SUM() as a decimal string.
    return rows.map((r) => ({
      day: r.day,
      modelId: r.model_id,
      impressions: Number(r.impressions),
      clicks: Number(r.clicks),
      earningsMicros: Number(r.earnings_micros),
      testImpressions: Number(r.test_impressions),
      testClicks: Number(r.test_clicks),
    }));
  }
}
