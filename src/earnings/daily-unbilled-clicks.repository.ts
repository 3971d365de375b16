import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { type Dialect, dialectOf } from '@/database/dialect';
import { type Statement, TableRows } from '@/database/statements';

/** One unbilled click to count in `daily_unbilled_clicks`. */
export interface UnbilledIncrement {
  day: string;
  modelId: string;
  campaignId: string;
  publisherId: string;
  reason: string;
}

interface CountedRow {
  row: UnbilledIncrement;
  count: number;
}

const DAILY_UNBILLED_CLICKS = new TableRows<CountedRow>('daily_unbilled_clicks', {
  day: ({ row }) => row.day,
  model_id: ({ row }) => row.modelId,
  campaign_id: ({ row }) => row.campaignId,
  reason: ({ row }) => row.reason,
  publisher_id: ({ row }) => row.publisherId,
  clicks: ({ count }) => count,
});

const ADD_CLICKS = { key: ['day', 'model_id', 'campaign_id', 'reason'], counters: ['clicks'] };

/** The one place that writes `daily_unbilled_clicks`: an upsert that adds to the count. */
@Injectable()
export class DailyUnbilledClicksRepository {
  private readonly dialect: Dialect;

  constructor(dataSource: DataSource) {
    this.dialect = dialectOf(dataSource);
  }

  /** The upsert, for the caller to send in its transaction; null: nothing to count. */
  upsertStatement(clicks: UnbilledIncrement[]): Statement | null {
    const rows = countByRow(clicks);
    if (rows.length === 0) return null;
    return DAILY_UNBILLED_CLICKS.insertAdding(rows, this.dialect, ADD_CLICKS);
  }
}

/**
 * One row per key with its count, in key order, so that concurrent batches lock shared rows
 * in the same order (as `daily_stats` does) and cannot deadlock on each other.
 */
function countByRow(clicks: UnbilledIncrement[]): CountedRow[] {
  const byKey = new Map<string, CountedRow>();
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
