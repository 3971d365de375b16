import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { AppConfig } from '@/config/app-config';
import { buildDataSourceOptions } from '@/database/data-source-options';
import { ENTITIES } from '@/entities';
import { DailyStatsRepository, type StatIncrement } from '@/earnings/daily-stats.repository';
import { DailyStat } from '@/earnings/entities/daily-stat.entity';
import { StatsRepository } from '@/stats/stats.repository';

/**
 * How long `GET /api/stats` takes to read 30 days for a big publisher, from the roll-ups.
 *
 *   npx nest build && node dist/bench/stats-query.js   (on a temporary SQLite file)
 *
 * It seeds a year of roll-ups: the measured publisher has 10 models × 20 campaigns with
 * 1,000 impressions per row and day (73 million impressions a year, 6 million in the 30
 * days read), among 300 other publishers; the query's cost depends on the rows of that
 * publisher and range (6,000 here), never on the number of impressions.
 */
const DAYS = 365;
const MODELS = 10;
const CAMPAIGNS = 20;
const OTHER_PUBLISHERS = 300;
const RUNS = 30;

function day(offset: number): string {
  return new Date(Date.UTC(2026, 0, 1) + offset * 86_400_000).toISOString().slice(0, 10);
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'adline-bench-'));
  const config = AppConfig.fromEnvironment({
    NODE_ENV: 'test',
    DATABASE_URL: `sqlite:${join(dir, 'bench.sqlite')}`,
    SESSION_SECRET: 'bench-session-secret-0123456789abcdef',
    CLICK_SIGNING_SECRET: 'bench-signing-secret-0123456789abcdef',
  });
  const dataSource = new DataSource(buildDataSourceOptions(config.database, ENTITIES));
  await dataSource.initialize();
  try {
    await dataSource.runMigrations();
    const writer = new DailyStatsRepository(dataSource);
    const rows: StatIncrement[] = [];
    const flush = async () => {
      await dataSource.transaction((m) => writer.increment(m, rows.splice(0)));
    };
    for (let d = 0; d < DAYS; d++) {
      for (let m = 0; m < MODELS; m++) {
        for (let c = 0; c < CAMPAIGNS; c++) {
          rows.push({
            day: day(d),
            modelId: `model-${m}`,
            campaignId: `campaign-${c}`,
            publisherId: 'big-publisher',
            impressions: 1000,
            clicks: 20,
            earningsMicros: 7_000_000,
          });
        }
      }
      for (let p = 0; p < OTHER_PUBLISHERS; p++) {
        rows.push({
          day: day(d),
          modelId: `other-model-${p}`,
          campaignId: 'campaign-0',
          publisherId: `publisher-${p}`,
          impressions: 100,
        });
      }
      // SQLite takes at most 32,766 bound values per statement (9 per roll-up row).
      if (rows.length >= 2_000) await flush();
    }
    await flush();
    const total = await dataSource.getRepository(DailyStat).count();

    const stats = new StatsRepository(dataSource.getRepository(DailyStat));
    const timings: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const started = process.hrtime.bigint();
      const result = await stats.perDayAndModel('big-publisher', day(200), day(229));
      timings.push(Number(process.hrtime.bigint() - started) / 1e6);
      if (result.length !== 30 * MODELS) throw new Error(`expected 300 rows, got ${result.length}`);
    }
    timings.sort((a, b) => a - b);
    console.log(
      `${config.database.type}: ${total} roll-up rows; 30-day query for a publisher with ` +
        `${MODELS} models × ${CAMPAIGNS} campaigns: median ${timings[RUNS / 2].toFixed(1)} ms, ` +
        `worst ${timings[RUNS - 1].toFixed(1)} ms over ${RUNS} runs`,
    );
  } finally {
    await dataSource.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
