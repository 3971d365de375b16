import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { sqlDatetime } from '@/common/clock';
import { DailyStat } from '@/earnings/entities/daily-stat.entity';
import { DailyUnbilledClick } from '@/earnings/entities/daily-unbilled-click.entity';
import type { Counters } from './stats-figures';

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
  viewedImpressions: number;
}

interface RawRow {
  day: string;
  model_id: string;
  impressions: string | number;
  clicks: string | number;
  earnings_micros: string | number;
  test_impressions: string | number;
  test_clicks: string | number;
  viewed_impressions: string | number;
}

/** A publisher's activity with one campaign's ads. */
export interface CampaignStat extends Counters {
  campaignId: string;
  campaignName: string | null;
}

/** A publisher's activity through one API key, from the raw events. */
export interface KeyStat extends Counters {
  keyId: string | null;
  modelId: string;
  keyPrefix: string | null;
  keyLabel: string | null;
}

/** Unbilled clicks of one UTC day, model and reason. */
export interface DailyUnbilledStat {
  day: string;
  modelId: string;
  reason: string;
  clicks: number;
}

type Sum = string | number | null;

/** The counters of a raw row; MySQL returns SUM() as a decimal string, and null for no rows. */
const counters = (r: Partial<Record<string, unknown>>): Counters => ({
  impressions: Number(r.impressions ?? 0),
  clicks: Number(r.clicks ?? 0),
  earningsMicros: Number(r.earnings_micros ?? 0),
  testImpressions: Number(r.test_impressions ?? 0),
  testClicks: Number(r.test_clicks ?? 0),
  viewedImpressions: Number(r.viewed_impressions ?? 0),
});

/** A key's prefix and label (one key per group: MAX picks it on every dialect). */
const KEY_NAMES = 'MAX(k.prefix) AS key_prefix, MAX(k.label) AS key_label';

/** The instants of UTC days `from`–`to`: [start of `from`, start of the day after `to`). */
function instants(from: string, to: string): [string, string] {
  const end = new Date(`${to}T00:00:00Z`);
  end.setUTCDate(end.getUTCDate() + 1);
  return [sqlDatetime(new Date(`${from}T00:00:00Z`)), sqlDatetime(end)];
}

/**
 * Reads the `daily_stats` and `daily_unbilled_clicks` roll-ups (a few rows per day, whatever
 * the number of events) and, for the figures per API key, which no roll-up keeps, the raw
 * impressions and clicks. Stats may not import tracking, so those two are read by table name.
 */
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
      .addSelect('SUM(s.viewedImpressions)', 'viewed_impressions')
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
      viewedImpressions: Number(r.viewed_impressions),
    }));
  }

  /** Sums over days and models, per campaign, with the campaign's name. */
  async perCampaign(
    publisherId: string,
    from: string,
    to: string,
    modelId?: string,
  ): Promise<CampaignStat[]> {
    const rows = await this.stats.manager.query<(Record<string, Sum> & { campaign_id: string })[]>(
      `SELECT s.campaign_id AS campaign_id, MAX(c.name) AS campaign_name,
         SUM(s.impressions) AS impressions, SUM(s.clicks) AS clicks,
         SUM(s.earnings_micros) AS earnings_micros,
         SUM(s.test_impressions) AS test_impressions, SUM(s.test_clicks) AS test_clicks,
         SUM(s.viewed_impressions) AS viewed_impressions
       FROM daily_stats s LEFT JOIN campaigns c ON c.id = s.campaign_id
       WHERE s.publisher_id = ? AND s.day BETWEEN ? AND ?${modelId === undefined ? '' : ' AND s.model_id = ?'}
       GROUP BY s.campaign_id`,
      [publisherId, from, to, ...(modelId === undefined ? [] : [modelId])],
    );
    return rows.map((r) => ({
      campaignId: r.campaign_id,
      campaignName: r.campaign_name === null ? null : String(r.campaign_name),
      ...counters(r),
    }));
  }

  /**
   * Per API key and model, from the raw impressions and clicks of the days `from`–`to`: only
   * what retention has kept (`RETENTION_DAYS`). Read through the models' (model_id,
   * created_at) indexes; a click counts on its own day, as in the roll-ups.
   */
  async perKey(
    publisherId: string,
    from: string,
    to: string,
    modelId?: string,
  ): Promise<KeyStat[]> {
    const [start, end] = instants(from, to);
    const ofModels = (alias: string) =>
      modelId === undefined
        ? `${alias}.model_id IN (SELECT id FROM ai_models WHERE publisher_id = ?)`
        : `${alias}.model_id = ? AND ${alias}.publisher_id = ?`;
    const modelParams = modelId === undefined ? [publisherId] : [modelId, publisherId];
    type Row = Record<string, Sum> & {
      key_id: string | null;
      model_id: string;
      key_prefix: string | null;
      key_label: string | null;
    };
    const [served, followed] = await Promise.all([
      this.stats.manager.query<Row[]>(
        `SELECT i.api_key_id AS key_id, i.model_id AS model_id, ${KEY_NAMES},
           SUM(CASE WHEN i.test = 1 THEN 0 ELSE 1 END) AS impressions,
           SUM(CASE WHEN i.test = 1 THEN 1 ELSE 0 END) AS test_impressions,
           SUM(CASE WHEN i.test = 1 OR i.viewed_at IS NULL THEN 0 ELSE 1 END) AS viewed_impressions
         FROM impressions i LEFT JOIN api_keys k ON k.id = i.api_key_id
         WHERE ${ofModels('i')} AND i.created_at >= ? AND i.created_at < ?
         GROUP BY i.api_key_id, i.model_id`,
        [...modelParams, start, end],
      ),
      this.stats.manager.query<Row[]>(
        `SELECT i.api_key_id AS key_id, c.model_id AS model_id, ${KEY_NAMES},
           SUM(CASE WHEN c.status = 'billed' THEN 1 ELSE 0 END) AS clicks,
           SUM(CASE WHEN c.status = 'billed' THEN c.publisher_earnings_micros ELSE 0 END) AS earnings_micros,
           SUM(CASE WHEN c.invalid_reason = 'test' THEN 1 ELSE 0 END) AS test_clicks
         FROM clicks c JOIN impressions i ON i.id = c.impression_id
           LEFT JOIN api_keys k ON k.id = i.api_key_id
         WHERE ${ofModels('c')} AND c.publisher_id = ? AND c.created_at >= ? AND c.created_at < ?
         GROUP BY i.api_key_id, c.model_id`,
        [...modelParams, publisherId, start, end],
      ),
    ]);
    const byKey = new Map<string, KeyStat>();
    for (const r of [...served, ...followed]) {
      const id = `${r.key_id}|${r.model_id}`;
      const row = byKey.get(id) ?? {
        keyId: r.key_id,
        modelId: r.model_id,
        keyPrefix: r.key_prefix,
        keyLabel: r.key_label,
        ...counters({}),
      };
      const add = counters(r);
      row.impressions += add.impressions;
      row.clicks += add.clicks;
      row.earningsMicros += add.earningsMicros;
      row.testImpressions += add.testImpressions;
      row.testClicks += add.testClicks;
      row.viewedImpressions += add.viewedImpressions;
      byKey.set(id, row);
    }
    return [...byKey.values()];
  }

  /** Unbilled clicks per day, model and reason; a publisher's rows are never forged follows. */
  async unbilledPerDayModelAndReason(
    publisherId: string,
    from: string,
    to: string,
    modelId?: string,
  ): Promise<DailyUnbilledStat[]> {
    const query = this.stats.manager
      .createQueryBuilder(DailyUnbilledClick, 'u')
      .select('u.day', 'day')
      .addSelect('u.modelId', 'model_id')
      .addSelect('u.reason', 'reason')
      .addSelect('SUM(u.clicks)', 'clicks')
      .where('u.publisherId = :publisherId', { publisherId })
      .andWhere('u.day BETWEEN :from AND :to', { from, to });
    if (modelId !== undefined) query.andWhere('u.modelId = :modelId', { modelId });
    const rows = await query
      .groupBy('u.day')
      .addGroupBy('u.modelId')
      .addGroupBy('u.reason')
      .getRawMany<{ day: string; model_id: string; reason: string; clicks: Sum }>();
    return rows.map((r) => ({
      day: r.day,
      modelId: r.model_id,
      reason: r.reason,
      clicks: Number(r.clicks),
    }));
  }
}
