import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock } from '@/common/clock';
import { AppConfig } from '@/config/app-config';
import { newId } from '@/database/columns';
import { databaseDeadlines } from '@/database/data-source-options';
import { GroupCommit } from '@/database/group-commit';
import { StatementTransactions } from '@/database/sql';
import { EarningsService } from '@/earnings/earnings.service';
import { MetricsService } from '@/metrics/metrics.service';
import type { KeyCredential } from '@/publishers/publisher-credentials';
import { Impression } from './entities/impression.entity';
import { explanationColumns, type ServedMatch } from './explanation/stored-explanation';
import { ImpressionsRepository } from './impressions.repository';

/** An ad that fetch-ads serves, as its impression records it. */
export interface ServedAd {
  caller: Pick<KeyCredential, 'keyId' | 'keyKind' | 'modelId' | 'publisherId' | 'revenueSharePpm'>;
  campaign: { id: string; bidMicros: number };
  country: string | null;
  device: string | null;
  /** As the request gave them: cut to their columns' widths here. */
  userLocation?: string | null;
  userDeviceInfo?: string | null;
  keywords: string[];
  conversation: string;
  /** Why this campaign won, kept for its receipt. */
  match: ServedMatch;
}

/**
 * Group commit of impressions. Each `record()` resolves only once its row is committed, so a
 * served ad always has its impression; meanwhile concurrent requests share one multi-row
 * insert (and one roll-up upsert) per batch instead of one transaction each. On MySQL two
 * batches may commit at once (on two pooled connections), so that new requests need not
 * wait for the running commit's fsync before theirs starts; SQLite has one writer. On MySQL
 * a batch's transaction is sent in one round trip (see StatementTransactions).
 */
@Injectable()
export class ImpressionWriter implements OnApplicationShutdown {
  private readonly logger = new Logger(ImpressionWriter.name);
  private readonly batches: GroupCommit<Impression, void>;
  private readonly transactions: StatementTransactions;
  /** The widths of the columns whose texts are cut to fit, as the entity declares them. */
  private readonly widths: {
    userLocation: number;
    userDeviceInfo: number;
    keywords: number;
    matched: number;
  };

  constructor(
    dataSource: DataSource,
    private readonly earnings: EarningsService,
    private readonly impressions: ImpressionsRepository,
    private readonly config: AppConfig,
    metrics: MetricsService,
    private readonly clock: Clock,
  ) {
    const columns = dataSource.getMetadata(Impression);
    const width = (property: string) =>
      Number(columns.findColumnWithPropertyName(property)!.length);
    this.widths = {
      userLocation: width('userLocation'),
      userDeviceInfo: width('userDeviceInfo'),
      keywords: width('keywords'),
      matched: width('matched'),
    };
    this.transactions = new StatementTransactions(dataSource, databaseDeadlines(config));
    this.batches = new GroupCommit({
      name: 'impressions',
      // fetch-ads answers 503 rather than wait longer; an ad it did not serve is not written.
      deadlineMs: config.databaseTimeoutMs,
      maxBatch: config.impressionBatchSize,
      flushMs: config.impressionFlushMs,
      maxConcurrent: config.database.type === 'mysql' ? 2 : 1,
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

  /** Records the impression of a served ad; resolves with it once it is committed. */
  async recordServed(ad: ServedAd): Promise<Impression> {
    const impression = this.impressionOf(ad);
    await this.record(impression);
    return impression;
  }

  /** Resolves once the row is committed. */
  record(impression: Impression): Promise<void> {
    return this.batches.submit(impression);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.batches.drain();
    await this.transactions.close();
  }

  /** The row: the texts the request gave, each cut to what its column holds. */
  private impressionOf(ad: ServedAd): Impression {
    const { caller, campaign } = ad;
    return {
      id: newId(),
      createdAt: this.clock.now(),
      modelId: caller.modelId,
      publisherId: caller.publisherId,
      campaignId: campaign.id,
      apiKeyId: caller.keyId,
      bidMicros: campaign.bidMicros,
      revenueSharePpm: caller.revenueSharePpm,
      country: ad.country,
      device: ad.device,
      userLocation: ad.userLocation?.slice(0, this.widths.userLocation) ?? null,
      userDeviceInfo: ad.userDeviceInfo?.slice(0, this.widths.userDeviceInfo) ?? null,
      keywords: ad.keywords.join(', ').slice(0, this.widths.keywords),
      // A text column holds far more; the configuration decides how much is kept.
      conversation: ad.conversation.slice(0, this.config.conversationMaxChars),
      clickedAt: null,
      // A test key's ad is real, but neither it nor its clicks are ever billed.
      test: caller.keyKind === 'test',
      ...explanationColumns(ad.match, this.widths.matched),
    };
  }

  private async write(rows: Impression[]): Promise<void[]> {
    const rollUp = this.earnings.impressionsStatement(rows);
    const insert = this.impressions.insertStatement(rows);
    await this.transactions.commit(rollUp ? [insert, rollUp] : [insert]);
    return rows.map(() => undefined);
  }
}
