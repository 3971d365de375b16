import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { type Dialect, dialectOf } from '@/database/dialect';
import { type Statement, TableRows } from '@/database/statements';

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
  /** Test keys' traffic, apart from the billable counters. */
  testImpressions?: number;
  testClicks?: number;
  viewedImpressions?: number;
  testViewedImpressions?: number;
}

const DAILY_STATS = new TableRows<StatIncrement>('daily_stats', {
  day: (r) => r.day,
  model_id: (r) => r.modelId,
  campaign_id: (r) => r.campaignId,
  publisher_id: (r) => r.publisherId,
  impressions: (r) => r.impressions ?? 0,
  clicks: (r) => r.clicks ?? 0,
  invalid_clicks: (r) => r.invalidClicks ?? 0,
  spend_micros: (r) => r.spendMicros ?? 0,
  earnings_micros: (r) => r.earningsMicros ?? 0,
  test_impressions: (r) => r.testImpressions ?? 0,
  test_clicks: (r) => r.testClicks ?? 0,
  viewed_impressions: (r) => r.viewedImpressions ?? 0,
  test_viewed_impressions: (r) => r.testViewedImpressions ?? 0,
});

const ADD_COUNTERS = {
  key: ['day', 'model_id', 'campaign_id'],
  counters: [
    'impressions',
    'clicks',
    'invalid_clicks',
    'spend_micros',
    'earnings_micros',
    'test_impressions',
    'test_clicks',
    'viewed_impressions',
    'test_viewed_impressions',
  ],
};

/** The one place that writes `daily_stats`: an upsert that adds to the counters. */
@Injectable()
export class DailyStatsRepository {
  private readonly dialect: Dialect;

  constructor(dataSource: DataSource) {
    this.dialect = dialectOf(dataSource);
  }

  async increment(manager: EntityManager, increments: StatIncrement[]): Promise<void> {
    const statement = this.upsertStatement(increments);
    if (statement) await manager.query(statement.sql, statement.parameters);
  }

  /** The upsert as text and parameters, for a caller that sends it itself; null: nothing to add. */
  upsertStatement(increments: StatIncrement[]): Statement | null {
    const rows = merge(increments);
    if (rows.length === 0) return null;
    return DAILY_STATS.insertAdding(rows, this.dialect, ADD_COUNTERS);
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
    row.testImpressions = (row.testImpressions ?? 0) + (inc.testImpressions ?? 0);
    row.testClicks = (row.testClicks ?? 0) + (inc.testClicks ?? 0);
    row.viewedImpressions = (row.viewedImpressions ?? 0) + (inc.viewedImpressions ?? 0);
    row.testViewedImpressions = (row.testViewedImpressions ?? 0) + (inc.testViewedImpressions ?? 0);
  }
  return [...byKey.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, row]) => row);
}
