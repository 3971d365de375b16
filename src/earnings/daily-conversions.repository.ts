import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { type Dialect, dialectOf } from '@/database/dialect';
import { type Statement, TableRows } from '@/database/statements';
import type { ConversionBasis } from './entities/daily-conversion.entity';

/** One conversion to count in `daily_conversions`, on one basis. */
export interface ConversionIncrement {
  basis: ConversionBasis;
  day: string;
  modelId: string;
  campaignId: string;
  event: string;
  publisherId: string;
  valueMicros: number;
}

interface CountedRow {
  row: ConversionIncrement;
  conversions: number;
  valueMicros: number;
}

const DAILY_CONVERSIONS = new TableRows<CountedRow>('daily_conversions', {
  basis: ({ row }) => row.basis,
  day: ({ row }) => row.day,
  model_id: ({ row }) => row.modelId,
  campaign_id: ({ row }) => row.campaignId,
  event: ({ row }) => row.event,
  publisher_id: ({ row }) => row.publisherId,
  conversions: ({ conversions }) => conversions,
  value_micros: ({ valueMicros }) => valueMicros,
});

const ADD_CONVERSIONS = {
  key: ['basis', 'day', 'model_id', 'campaign_id', 'event'],
  counters: ['conversions', 'value_micros'],
};

/** The one place that writes `daily_conversions`: an upsert that adds to the counters. */
@Injectable()
export class DailyConversionsRepository {
  private readonly dialect: Dialect;

  constructor(dataSource: DataSource) {
    this.dialect = dialectOf(dataSource);
  }

  /** The upsert, for the caller to send in its transaction; null: nothing to count. */
  upsertStatement(increments: ConversionIncrement[]): Statement | null {
    const byKey = new Map<string, CountedRow>();
    for (const row of increments) {
      const key = `${row.basis}|${row.day}|${row.modelId}|${row.campaignId}|${row.event}`;
      const entry = byKey.get(key);
      if (entry) {
        entry.conversions++;
        entry.valueMicros += row.valueMicros;
      } else byKey.set(key, { row, conversions: 1, valueMicros: row.valueMicros });
    }
    if (byKey.size === 0) return null;
    // In key order, so that concurrent senders lock shared rows in one order (no deadlock).
    const rows = [...byKey.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, entry]) => entry);
    return DAILY_CONVERSIONS.insertAdding(rows, this.dialect, ADD_CONVERSIONS);
  }
}
