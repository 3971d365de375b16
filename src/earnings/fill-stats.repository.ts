import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { type Dialect, dialectOf } from '@/database/dialect';
import { TableRows } from '@/database/statements';
import { DailyFillStat } from './entities/daily-fill-stat.entity';
import type { FillCount, FillOutcome } from './fill-outcomes';

const DAILY_FILL_STATS = new TableRows<FillCount>('daily_fill_stats', {
  day: (r) => r.day,
  model_id: (r) => r.modelId,
  outcome: (r) => r.outcome,
  publisher_id: (r) => r.publisherId,
  requests: (r) => r.count,
});

const ADD_REQUESTS = { key: ['day', 'model_id', 'outcome'], counters: ['requests'] };

/** Rows per statement: far below SQLite's cap on a statement's values. */
const CHUNK = 500;

/** Requests of one UTC day and model by outcome, as stored. */
export interface DailyModelFills {
  day: string;
  modelId: string;
  outcome: FillOutcome;
  requests: number;
}

interface RawRow {
  day: string;
  model_id: string;
  outcome: FillOutcome;
  requests: string | number;
}

/** Reads and writes `daily_fill_stats`, the per-day counts of fetch-ads' outcomes. */
@Injectable()
export class FillStatsRepository {
  private readonly dialect: Dialect;

  constructor(
    private readonly dataSource: DataSource,
    @InjectRepository(DailyFillStat) private readonly fills: Repository<DailyFillStat>,
  ) {
    this.dialect = dialectOf(dataSource);
  }

  /**
   * Adds the counts to the stored rows, a chunk per statement; `onWritten` hears each chunk
   * that committed, so a failure part-way knows what it still holds.
   */
  async add(counts: readonly FillCount[], onWritten: (n: number) => void): Promise<void> {
    for (let start = 0; start < counts.length; start += CHUNK) {
      const chunk = counts.slice(start, start + CHUNK);
      const { sql, parameters } = DAILY_FILL_STATS.insertAdding(chunk, this.dialect, ADD_REQUESTS);
      await this.dataSource.query(sql, parameters);
      onWritten(chunk.length);
    }
  }

  /** Per day, model and outcome; served by the (publisher_id, day) index. */
  async perDayAndModel(
    publisherId: string,
    from: string,
    to: string,
    modelId?: string,
  ): Promise<DailyModelFills[]> {
    const query = this.fills
      .createQueryBuilder('f')
      .select('f.day', 'day')
      .addSelect('f.modelId', 'model_id')
      .addSelect('f.outcome', 'outcome')
      .addSelect('f.requests', 'requests')
      .where('f.publisherId = :publisherId', { publisherId })
      .andWhere('f.day BETWEEN :from AND :to', { from, to });
    if (modelId !== undefined) query.andWhere('f.modelId = :modelId', { modelId });
    const rows = await query.getRawMany<RawRow>();
    // MySQL returns BIGINT as a string.
    return rows.map((r) => ({
      day: r.day,
      modelId: r.model_id,
      outcome: r.outcome,
      requests: Number(r.requests),
    }));
  }
}
