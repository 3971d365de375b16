import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '@/config/app-config';
import { sqlDatetime } from '@/common/clock';
import { isMysql, transactionWithRetry } from '@/database/sql';
import { EarningsService } from '@/earnings/earnings.service';
import { Impression } from './entities/impression.entity';

interface Pending {
  impression: Impression;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** The impressions table's columns in insert order; the benchmark's raw baseline uses them too. */
export const IMPRESSION_COLUMNS = [
  'id',
  'created_at',
  'model_id',
  'publisher_id',
  'campaign_id',
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
 * wait for the running commit's fsync before theirs starts; SQLite has one writer.
 */
@Injectable()
export class ImpressionWriter implements OnApplicationShutdown {
  private readonly logger = new Logger(ImpressionWriter.name);
  private queue: Pending[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | null = null;
  /** Committed batches and rows since start: how well group commit is batching. */
  readonly stats = { batches: 0, rows: 0 };

  constructor(
    private readonly dataSource: DataSource,
    private readonly earnings: EarningsService,
    private readonly config: AppConfig,
  ) {}

  private get maxConcurrentBatches(): number {
    return isMysql(this.dataSource.manager) ? 2 : 1;
  }

  record(impression: Impression): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ impression, resolve, reject });
      if (this.queue.length >= this.config.impressionBatchSize) this.startFlush();
      // A short wait lets concurrent requests join the batch; none while every slot is
      // busy, because a finishing batch picks the queue up as soon as it commits.
      else if (!this.timer && this.inFlight.size < this.maxConcurrentBatches) {
        this.timer = setTimeout(() => this.startFlush(), this.config.impressionFlushMs);
      }
    });
  }

  async onApplicationShutdown(): Promise<void> {
    this.startFlush();
    while (this.inFlight.size > 0) await Promise.all(this.inFlight);
  }

  private startFlush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    while (this.queue.length > 0 && this.inFlight.size < this.maxConcurrentBatches) {
      const batch = this.queue.splice(0, this.config.impressionBatchSize);
      const write: Promise<void> = this.write(batch).finally(() => {
        this.inFlight.delete(write);
        if (this.queue.length > 0) this.startFlush();
      });
      this.inFlight.add(write);
    }
  }

  private async write(batch: Pending[]): Promise<void> {
    const rows = batch.map((p) => p.impression);
    try {
      await transactionWithRetry(this.dataSource.manager, async (manager) => {
        // Hand-written: TypeORM's insert builder costs more CPU than the database's work here.
        await manager.query(
          `INSERT INTO impressions (${IMPRESSION_COLUMNS.join(', ')}) VALUES ${rows.map(() => ROW_PLACEHOLDERS).join(', ')}`,
          rows.flatMap((r) => [
            r.id,
            sqlDatetime(r.createdAt),
            r.modelId,
            r.publisherId,
            r.campaignId,
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
        );
        await this.earnings.recordImpressions(manager, rows);
      });
      this.stats.batches += 1;
      this.stats.rows += rows.length;
      for (const pending of batch) pending.resolve();
    } catch (error) {
      this.logger.error(`could not write ${rows.length} impressions`, (error as Error).stack);
      for (const pending of batch) pending.reject(error);
    }
  }
}
