import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository, SelectQueryBuilder } from 'typeorm';
import { DailyStat } from './entities/daily-stat.entity';

/** The counters every report sums from the `daily_stats` roll-ups. */
export interface ReportCounters {
  impressions: number;
  clicks: number;
  invalidClicks: number;
  spendMicros: number;
  earningsMicros: number;
}

export interface CampaignDayCounters extends ReportCounters {
  day: string;
}

export interface PublisherCounters extends ReportCounters {
  publisherId: string;
}

type RawCounters = Record<
  'impressions' | 'clicks' | 'invalid_clicks' | 'spend' | 'earnings',
  string | number
>;

/**
 * Operators' report queries over the roll-ups that the click and impression transactions
 * keep beside the ledger, so every report figure is the ledger's figure.
 */
@Injectable()
export class ReportsRepository {
  constructor(@InjectRepository(DailyStat) private readonly stats: Repository<DailyStat>) {}

  /** Per UTC day with any activity, oldest first; served by the (campaign_id, day) index. */
  async campaignDays(campaignId: string, from: string, to: string): Promise<CampaignDayCounters[]> {
    const rows = await sums(this.stats.createQueryBuilder('s'))
      .addSelect('s.day', 'day')
      .where('s.campaignId = :campaignId', { campaignId })
      .andWhere('s.day BETWEEN :from AND :to', { from, to })
      .groupBy('s.day')
      .orderBy('s.day', 'ASC')
      .getRawMany<RawCounters & { day: string }>();
    return rows.map((r) => ({ day: r.day, ...counters(r) }));
  }

  /** Per publisher with any activity in the range. */
  async publishers(from: string, to: string): Promise<PublisherCounters[]> {
    const rows = await sums(this.stats.createQueryBuilder('s'))
      .addSelect('s.publisherId', 'publisher_id')
      .where('s.day BETWEEN :from AND :to', { from, to })
      .groupBy('s.publisherId')
      .orderBy('s.publisherId', 'ASC')
      .getRawMany<RawCounters & { publisher_id: string }>();
    return rows.map((r) => ({ publisherId: r.publisher_id, ...counters(r) }));
  }
}

function sums(query: SelectQueryBuilder<DailyStat>): SelectQueryBuilder<DailyStat> {
  return query
    .select('SUM(s.impressions)', 'impressions')
    .addSelect('SUM(s.clicks)', 'clicks')
    .addSelect('SUM(s.invalidClicks)', 'invalid_clicks')
    .addSelect('SUM(s.spendMicros)', 'spend')
    .addSelect('SUM(s.earningsMicros)', 'earnings');
}

// MySQL returns SUM() as a decimal string.
function counters(row: RawCounters): ReportCounters {
  return {
    impressions: Number(row.impressions),
    clicks: Number(row.clicks),
    invalidClicks: Number(row.invalid_clicks),
    spendMicros: Number(row.spend),
    earningsMicros: Number(row.earnings),
  };
}
