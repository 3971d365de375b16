import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Statement } from '@/database/mysql-statement-batch';
import { isMysql } from '@/database/sql';

/** Increments for one roll-up row (UTC day × model × campaign). */
export interface StatIncrement {
  day: string;
  modelId: string;
  campaignId: string;
  publisherId: string;
  impressions?: number;
  clicks?: number;
  invalidClicks?: number;
  spendMicros?: number;
  earningsMicros?: number;
}

const COUNTERS = [
  'impressions',
  'clicks',
  'invalid_clicks',
  'spend_micros',
  'earnings_micros',
] as const;

/** The one place that writes `daily_stats`: an upsert that adds to the counters. */
@Injectable()
export class DailyStatsRepository {
  async increment(manager: EntityManager, increments: StatIncrement[]): Promise<void> {
    const statement = this.upsertStatement(increments, isMysql(manager));
    if (statement) await manager.query(statement.sql, statement.parameters);
  }

  /** The upsert as text and parameters, for a caller that sends it itself; null: nothing to add. */
  upsertStatement(increments: StatIncrement[], mysql: boolean): Statement | null {
    const rows = merge(increments);
    if (rows.length === 0) return null;
    const placeholders = rows.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ');
    const parameters = rows.flatMap((r) => [
      r.day,
      r.modelId,
      r.campaignId,
      r.publisherId,
      r.impressions ?? 0,
      r.clicks ?? 0,
      r.invalidClicks ?? 0,
      r.spendMicros ?? 0,
      r.earningsMicros ?? 0,
    ]);
    // The two dialects spell "add to the existing row" differently; the statement is the same.
    const onConflict = mysql
      ? `ON DUPLICATE KEY UPDATE ${COUNTERS.map((c) => `${c} = ${c} + VALUES(${c})`).join(', ')}`
      : `ON CONFLICT (day, model_id, campaign_id) DO UPDATE SET ${COUNTERS.map((c) => `${c} = ${c} + excluded.${c}`).join(', ')}`;
    return {
      sql: `INSERT INTO daily_stats (day, model_id, campaign_id, publisher_id, ${COUNTERS.join(', ')})
       VALUES ${placeholders} ${onConflict}`,
      parameters,
    };
  }
}

/**
 * Sums increments for the same row, so a batch upserts each row once; in key order, so that
 * concurrent batches lock shared rows in the same order and cannot deadlock on each other.
 */
function merge(increments: StatIncrement[]): StatIncrement[] {
  const byKey = new Map<string, StatIncrement>();
  for (const inc of increments) {
    const key = `${inc.day}|${inc.modelId}|${inc.campaignId}`;
    const row = byKey.get(key);
    if (!row) {
      byKey.set(key, { ...inc });
      continue;
    }
    row.impressions = (row.impressions ?? 0) + (inc.impressions ?? 0);
    row.clicks = (row.clicks ?? 0) + (inc.clicks ?? 0);
    row.invalidClicks = (row.invalidClicks ?? 0) + (inc.invalidClicks ?? 0);
    row.spendMicros = (row.spendMicros ?? 0) + (inc.spendMicros ?? 0);
    row.earningsMicros = (row.earningsMicros ?? 0) + (inc.earningsMicros ?? 0);
  }
  return [...byKey.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, row]) => row);
}
