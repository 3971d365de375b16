import { DataSource } from 'typeorm';
import { Clock } from '@/common/clock';
import { AppConfig } from '@/config/app-config';
import { newId } from '@/database/columns';
import { buildDataSourceOptions } from '@/database/data-source-options';
import { ENTITIES } from '@/entities';
import { DailyConversionsRepository } from '@/earnings/daily-conversions.repository';
import { DailyStatsRepository } from '@/earnings/daily-stats.repository';
import { DailyUnbilledClicksRepository } from '@/earnings/daily-unbilled-clicks.repository';
import { EarningsService } from '@/earnings/earnings.service';
import { LedgerRepository } from '@/earnings/ledger.repository';
import { MetricsService } from '@/metrics/metrics.service';
import type { Impression } from '@/tracking/entities/impression.entity';
import { ImpressionWriter } from '@/tracking/impression-writer.service';
import { ImpressionsRepository } from '@/tracking/impressions.repository';
import type { Seeded } from '../seed/database';

/**
 * The service's impression writer alone (group commit: one multi-row INSERT and one roll-up
 * upsert per batch, in one transaction), kept busy with two batches' worth of impressions
 * in flight for `seconds`. Rows per second, to compare with raw multi-row inserts.
 */
export async function impressionWriterRate(
  databaseUrl: string,
  seeded: Seeded,
  batch: number,
  seconds: number,
): Promise<{ rowsPerSecond: number; rows: number; batches: number }> {
  const config = AppConfig.fromEnvironment({
    NODE_ENV: 'test',
    DATABASE_URL: databaseUrl,
    CLICK_SIGNING_SECRET: 'bench-signing-secret-0123456789abcdef',
    SESSION_SECRET: 'bench-session-secret-0123456789abcdef',
    IMPRESSION_BATCH_SIZE: String(batch),
  });
  const dataSource = new DataSource(buildDataSourceOptions(config.database, ENTITIES));
  await dataSource.initialize();
  const writer = new ImpressionWriter(
    dataSource,
    new EarningsService(
      new DailyStatsRepository(dataSource),
      new DailyUnbilledClicksRepository(dataSource),
      new LedgerRepository(),
      new DailyConversionsRepository(dataSource),
    ),
    new ImpressionsRepository(dataSource),
    config,
    new MetricsService(),
    new Clock(),
  );
  const conversation = 'which gpu should I rent to train my model '.repeat(17);
  let rows = 0;
  const deadline = Date.now() + seconds * 1000;
  const started = process.hrtime.bigint();
  const producer = async (worker: number): Promise<void> => {
    while (Date.now() < deadline) {
      const pending: Promise<void>[] = [];
      for (let i = 0; i < batch; i++) {
        const impression: Impression = {
          id: newId(),
          createdAt: new Date(),
          modelId: seeded.modelIds[(i + worker) % seeded.modelIds.length],
          publisherId: seeded.publisherId,
          campaignId: 'bench-00000001',
          apiKeyId: null,
          bidMicros: 450_000,
          revenueSharePpm: 700_000,
          country: 'DE',
          device: 'mobile',
          userLocation: 'Berlin, Germany',
          userDeviceInfo: 'mobile',
          keywords: 'gpu, machine learning',
          conversation,
          clickedAt: null,
          test: false,
          relevancePpm: 750_000,
          matched: '{"k":["gpu"],"c":["machine learning"]}',
          campaignTargets: 'DE;',
        };
        pending.push(writer.record(impression));
      }
      await Promise.all(pending);
      rows += batch;
    }
  };
  try {
    await Promise.all([producer(0), producer(1)]);
    const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
    return { rowsPerSecond: rows / elapsed, rows, batches: writer.stats.batches };
  } finally {
    // Closes the writer's own MySQL pool too (the service does this at shutdown).
    await writer.onApplicationShutdown();
    await dataSource.destroy();
  }
}
