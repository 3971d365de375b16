import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '@/config/app-config';
import { sqlDatetime } from '@/common/clock';
import { databaseDeadlines } from '@/database/data-source-options';
import { GroupCommit } from '@/database/group-commit';
import { MysqlStatementBatch, type Statement } from '@/database/mysql-statement-batch';
import { transactionWithRetry } from '@/database/sql';
import { EarningsService } from '@/earnings/earnings.service';
import { MetricsService } from '@/metrics/metrics.service';
import { Impression } from './entities/impression.entity';

/** The impressions table's columns in insert order; the benchmark's raw baseline uses them too. */
export const IMPRESSION_COLUMNS = [
  'id',
  'created_at',
  'model_id',
  'publisher_id',
  'campaign_id',
  'api_key_id',
  'bid_micros',
  'revenue_share_ppm',
  'country',
  'device',
  'user_location',
  'user_device_info',
  'keywords',
  'conversation',
  'clicked_at',
];
const ROW_PLACEHOLDERS = `(${IMPRESSION_COLUMNS.map(() => '?').join(', ')})`;

/**
 * Group commit of impressions. Each `record()` resolves only once its row is committed, so a
 * served ad always has its impression; meanwhile concurrent requests share one multi-row
 * INSERT (and one roll-up upsert) per batch instead of one transaction each. On MySQL two
 * batches may commit at once (on two pooled connections), so that new requests need not
 * wait for the running commit's fsync before theirs starts; SQLite has one writer. On MySQL
 * a batch's transaction is sent in one round trip (see MysqlStatementBatch).
 */
@Injectable()
export class ImpressionWriter implements OnApplicationShutdown {
  private readonly logger = new Logger(ImpressionWriter.name);
  private readonly batches: GroupCommit<Impression, void>;
  private readonly mysql: MysqlStatementBatch | null;

  constructor(
    private readonly dataSource: DataSource,
    private readonly earnings: EarningsService,
    config: AppConfig,
    metrics: MetricsService,
  ) {
    this.mysql =
      config.database.type === 'mysql'
        ? new MysqlStatementBatch(config.database.url, databaseDeadlines(config))
        : null;
    this.batches = new GroupCommit({
      name: 'impressions',
      // fetch-ads answers 503 rather than wait longer; an ad it did not serve is not written.
      deadlineMs: config.databaseTimeoutMs,
      maxBatch: config.impressionBatchSize,
      flushMs: config.impressionFlushMs,
      maxConcurrent: this.mysql ? 2 : 1,
      write: (rows) => this.write(rows),
      onCommit: metrics.batchObserver('impressions'),
      onBatchFailure: (error, size) =>
        this.logger.error(
          `could not write ${size} impressions in one batch; writing them one by one`,
          (error as Error).stack,
        ),
    });
  }

  /** Committed batches and rows since start: how well group commit is batching. */
  get stats(): { batches: number; rows: number } {
    return { batches: this.batches.stats.batches, rows: this.batches.stats.items };
  }

  record(impression: Impression): Promise<void> {
    return this.batches.submit(impression);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.batches.drain();
    await this.mysql?.close();
  }

  private async write(rows: Impression[]): Promise<void[]> {
    const insert = insertStatement(rows);
    if (this.mysql) {
      const rollUp = this.earnings.impressionsStatement(rows, true);
      await this.mysql.transaction(rollUp ? [insert, rollUp] : [insert]);
    } else {
      await transactionWithRetry(this.dataSource.manager, async (manager) => {
        await manager.query(insert.sql, insert.parameters);
        await this.earnings.recordImpressions(manager, rows);
      });
    }
    return rows.map(() => undefined);
  }
}

/** Hand-written: TypeORM's insert builder costs more CPU than the database's work here. */
function insertStatement(rows: Impression[]): Statement {
  return {
    sql: `INSERT INTO impressions (${IMPRESSION_COLUMNS.join(', ')}) VALUES ${rows.map(() => ROW_PLACEHOLDERS).join(', ')}`,
    parameters: rows.flatMap((r) => [
      r.id,
      sqlDatetime(r.createdAt),
      r.modelId,
      r.publisherId,
      r.campaignId,
      r.apiKeyId,
      r.bidMicros,
      r.revenueSharePpm,
      r.country,
      r.device,
      r.userLocation,
      r.userDeviceInfo,
      r.keywords,
      r.conversation,
      r.clickedAt === null ? null : sqlDatetime(r.clickedAt),
    ]),
  };
}
