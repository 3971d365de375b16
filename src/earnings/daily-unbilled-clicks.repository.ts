import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { isMysql } from '@/database/sql';

/**
 * The publisher and model id of a forged follow's roll-ups (`bad_signature`,
 * `unknown_impression`): it names no real impression, so only its link's campaign is known.
 * Campaign reports count these rows; publisher and model reports and `/api/stats` never do.
 */
export const UNKNOWN_SOURCE = '';

/** One unbilled click to count in `daily_unbilled_clicks`. */
export interface UnbilledIncrement {
  day: string;
  modelId: string;
  campaignId: string;
  publisherId: string;
  reason: string;
}

/** The one place that writes `daily_unbilled_clicks`: an upsert that adds to the count. */
@Injectable()
export class DailyUnbilledClicksRepository {
  async increment(manager: EntityManager, clicks: UnbilledIncrement[]): Promise<void> {
    const rows = countByRow(clicks);
    if (rows.length === 0) return;
    const onConflict = isMysql(manager)
      ? 'ON DUPLICATE KEY UPDATE clicks = clicks + VALUES(clicks)'
      : 'ON CONFLICT (day, model_id, campaign_id, reason) DO UPDATE SET clicks = clicks + excluded.clicks';
    await manager.query(
      `INSERT INTO daily_unbilled_clicks (day, model_id, campaign_id, reason, publisher_id, clicks)
       VALUES ${rows.map(() => '(?, ?, ?, ?, ?, ?)').join(', ')} ${onConflict}`,
      rows.flatMap(({ row, count }) => [
        row.day,
        row.modelId,
        row.campaignId,
        row.reason,
        row.publisherId,
        count,
      ]),
    );
  }
}

/**
 * One row per key with its count, in key order, so that concurrent batches lock shared rows
 * in the same order (as `daily_stats` does) and cannot deadlock on each other.
 */
function countByRow(clicks: UnbilledIncrement[]): { row: UnbilledIncrement; count: number }[] {
  const byKey = new Map<string, { row: UnbilledIncrement; count: number }>();
  for (const click of clicks) {
    const key = `${click.day}|${click.modelId}|${click.campaignId}|${click.reason}`;
    const entry = byKey.get(key);
    if (entry) entry.count++;
    else byKey.set(key, { row: click, count: 1 });
  }
  return [...byKey.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, entry]) => entry);
}
