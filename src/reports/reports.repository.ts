import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository, SelectQueryBuilder } from 'typeorm';
import { AiModel } from '@/publishers/entities/ai-model.entity';
import { UNKNOWN_SOURCE } from '@/earnings/entities/daily-unbilled-click.entity';
import { DailyConversion } from '@/earnings/entities/daily-conversion.entity';
import { DailyStat } from '@/earnings/entities/daily-stat.entity';
import { DailyUnbilledClick } from '@/earnings/entities/daily-unbilled-click.entity';

/** How many unbilled clicks had each reason; a reason without clicks is left out. */
export type ReasonCounts = Record<string, number>;

/** The counters every report sums from the `daily_stats` roll-ups. */
export interface ReportCounters {
  impressions: number;
  clicks: number;
  invalidClicks: number;
  spendMicros: number;
  earningsMicros: number;
  viewedImpressions: number;
}

/** A row's conversions from the `daily_conversions` roll-ups, value in micros (USD only). */
export interface ConversionCounts {
  /** Counted on their click's day. */
  conversions: number;
  conversionsByEvent: Record<string, number>;
  conversionValueMicros: number;
  /** Counted on the day they arrived. */
  conversionsReceived: number;
}

/** A group's conversions, with whose they are (for a group with no other activity). */
export interface GroupConversions extends ConversionCounts {
  publisherId: string;
  modelName: string | null;
}

export interface CampaignDayCounters extends ReportCounters {
  day: string;
}

export interface PublisherCounters extends ReportCounters {
  publisherId: string;
}

export interface ModelCounters extends PublisherCounters {
  modelId: string;
  /** null when the model no longer exists. */
  modelName: string | null;
}

/** What unbilled clicks are broken down by: the row key of each report. */
const REASON_GROUPS = { day: 'u.day', publisher: 'u.publisherId', model: 'u.modelId' } as const;
export type ReasonGroup = keyof typeof REASON_GROUPS;
const CONVERSION_GROUPS = { day: 'c.day', publisher: 'c.publisherId', model: 'c.modelId' } as const;

type RawCounters = Record<
  'impressions' | 'clicks' | 'invalid_clicks' | 'spend' | 'earnings' | 'viewed_impressions',
  string | number
>;

/**
 * Operators' report queries over the roll-ups that the click and impression transactions
 * keep beside the ledger, so every report figure is the ledger's figure.
 */
@Injectable()
export class ReportsRepository {
  constructor(
    @InjectRepository(DailyStat) private readonly stats: Repository<DailyStat>,
    @InjectRepository(DailyUnbilledClick)
    private readonly unbilled: Repository<DailyUnbilledClick>,
    @InjectRepository(DailyConversion)
    private readonly conversions: Repository<DailyConversion>,
  ) {}

  /**
   * Conversions in the range per day, publisher or model (the key of the map), optionally of
   * one campaign: on the click's day (`conversions`, by event, with their value) and on the
   * arrival day (`conversionsReceived`). Per publisher or model only those of known ones.
   */
  async conversionsBy(
    group: ReasonGroup,
    from: string,
    to: string,
    campaignId?: string,
  ): Promise<Map<string, GroupConversions>> {
    const query = this.conversions
      .createQueryBuilder('c')
      .select(CONVERSION_GROUPS[group], 'group_key')
      .addSelect('MAX(c.publisherId)', 'publisher_id')
      .addSelect('c.basis', 'basis')
      .addSelect('c.event', 'event')
      .addSelect('SUM(c.conversions)', 'conversions')
      .addSelect('SUM(c.valueMicros)', 'value')
      .where('c.day BETWEEN :from AND :to', { from, to });
    if (group === 'model') {
      query.addSelect('MAX(m.name)', 'model_name').leftJoin(AiModel, 'm', 'm.id = c.modelId');
    }
    if (campaignId !== undefined) query.andWhere('c.campaignId = :campaignId', { campaignId });
    if (group !== 'day') query.andWhere('c.publisherId <> :unknown', { unknown: UNKNOWN_SOURCE });
    const rows = await query
      .groupBy(CONVERSION_GROUPS[group])
      .addGroupBy('c.basis')
      .addGroupBy('c.event')
      .getRawMany<{
        group_key: string;
        publisher_id: string;
        model_name?: string | null;
        basis: string;
        event: string;
        conversions: string | number;
        value: string | number;
      }>();
    const byGroup = new Map<string, GroupConversions>();
    for (const row of rows) {
      const counts = byGroup.get(row.group_key) ?? {
        publisherId: row.publisher_id,
        modelName: row.model_name ?? null,
        conversions: 0,
        conversionsByEvent: {},
        conversionValueMicros: 0,
        conversionsReceived: 0,
      };
      const conversions = Number(row.conversions);
      if (row.basis === 'arrival') counts.conversionsReceived += conversions;
      else {
        counts.conversions += conversions;
        counts.conversionsByEvent[row.event] = conversions;
        counts.conversionValueMicros += Number(row.value);
      }
      byGroup.set(row.group_key, counts);
    }
    return byGroup;
  }

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

  /** Per publisher with any activity in the range (not forged follows: they name none). */
  async publishers(from: string, to: string): Promise<PublisherCounters[]> {
    const rows = await sums(this.stats.createQueryBuilder('s'))
      .addSelect('s.publisherId', 'publisher_id')
      .where('s.day BETWEEN :from AND :to', { from, to })
      .andWhere('s.publisherId <> :unknown', { unknown: UNKNOWN_SOURCE })
      .groupBy('s.publisherId')
      .orderBy('s.publisherId', 'ASC')
      .getRawMany<RawCounters & { publisher_id: string }>();
    return rows.map((r) => ({ publisherId: r.publisher_id, ...counters(r) }));
  }

  /** Per model with any activity in the range, by publisher then model. */
  async models(from: string, to: string): Promise<ModelCounters[]> {
    const rows = await sums(this.stats.createQueryBuilder('s'))
      .addSelect('s.publisherId', 'publisher_id')
      .addSelect('s.modelId', 'model_id')
      .addSelect('m.name', 'model_name')
      .leftJoin(AiModel, 'm', 'm.id = s.modelId')
      .where('s.day BETWEEN :from AND :to', { from, to })
      .andWhere('s.publisherId <> :unknown', { unknown: UNKNOWN_SOURCE })
      .groupBy('s.publisherId')
      .addGroupBy('s.modelId')
      .addGroupBy('m.name')
      .orderBy('s.publisherId', 'ASC')
      .addOrderBy('s.modelId', 'ASC')
      .getRawMany<
        RawCounters & { publisher_id: string; model_id: string; model_name: string | null }
      >();
    return rows.map((r) => ({
      publisherId: r.publisher_id,
      modelId: r.model_id,
      modelName: r.model_name,
      ...counters(r),
    }));
  }

  /**
   * Unbilled clicks in the range by reason, per day, publisher or model (the key of the
   * map), optionally of one campaign. Per day they include forged follows (of no known
   * publisher or model); per publisher or model only real ones.
   */
  async unbilledByReason(
    group: ReasonGroup,
    from: string,
    to: string,
    campaignId?: string,
  ): Promise<Map<string, ReasonCounts>> {
    const query = this.unbilled
      .createQueryBuilder('u')
      .select(REASON_GROUPS[group], 'group_key')
      .addSelect('u.reason', 'reason')
      .addSelect('SUM(u.clicks)', 'clicks')
      .where('u.day BETWEEN :from AND :to', { from, to });
    if (campaignId !== undefined) query.andWhere('u.campaignId = :campaignId', { campaignId });
    if (group !== 'day') query.andWhere('u.publisherId <> :unknown', { unknown: UNKNOWN_SOURCE });
    const rows = await query
      .groupBy(REASON_GROUPS[group])
      .addGroupBy('u.reason')
      .getRawMany<{ group_key: string; reason: string; clicks: string | number }>();
    const byGroup = new Map<string, ReasonCounts>();
    for (const row of rows) {
      const counts = byGroup.get(row.group_key) ?? {};
      counts[row.reason] = Number(row.clicks);
      byGroup.set(row.group_key, counts);
    }
    return byGroup;
  }
}

/**
 * The billable counters of each group. A group with test keys' traffic only (counted in
 * `test_impressions` and `test_clicks`, which reports leave out) is no activity to report.
 */
function sums(query: SelectQueryBuilder<DailyStat>): SelectQueryBuilder<DailyStat> {
  return query
    .select('SUM(s.impressions)', 'impressions')
    .addSelect('SUM(s.clicks)', 'clicks')
    .addSelect('SUM(s.invalidClicks)', 'invalid_clicks')
    .addSelect('SUM(s.spendMicros)', 'spend')
    .addSelect('SUM(s.earningsMicros)', 'earnings')
    .addSelect('SUM(s.viewedImpressions)', 'viewed_impressions')
    .having('SUM(s.impressions) + SUM(s.clicks) + SUM(s.invalidClicks) > 0');
}

// MySQL returns SUM() as a decimal string.
function counters(row: RawCounters): ReportCounters {
  return {
    impressions: Number(row.impressions),
    clicks: Number(row.clicks),
    invalidClicks: Number(row.invalid_clicks),
    spendMicros: Number(row.spend),
    earningsMicros: Number(row.earnings),
    viewedImpressions: Number(row.viewed_impressions),
  };
}
