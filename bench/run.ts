import 'reflect-metadata';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { measureBaselines } from './baselines/baselines';
import { log } from './common/log';
import { parseOptions, ROOT } from './common/options';
import { measureMatcher } from './matcher/measure-matcher';
import { measureMemory } from './memory';
import { describeMachine } from './report/machine';
import { render, writeReport } from './report/report';
import type { Report } from './report/report.types';
import { createBenchDatabase, seed } from './seed/database';
import { measureFetchMax, measureObservabilityCost } from './service/service-phases';
import { measureService } from './service/service-run';

/**
 * `npm run bench`: the whole benchmark in one command (docs/testing.md, "Benchmarks").
 * Builds nothing itself (the npm script builds first); everything else happens here: a
 * fresh database with generated data, the built service started as production runs it,
 * baselines measured minutes apart on the same machine, the goals table, BENCHMARKS.md.
 */

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  if (options.memory.length > 0) {
    console.log(`\n${await measureMemory(options.memory, options)}\n`);
    return;
  }
  const started = Date.now();
  if (!existsSync(join(ROOT, 'dist', 'src', 'main.js'))) {
    throw new Error('dist/src/main.js is missing: run `npm run bench`, which builds first');
  }
  const report: Report = {
    options,
    machine: await describeMachine(options),
    seeds: [],
    baselines: null,
    runs: [],
    withoutThrottler: null,
    observability: null,
    matcher: [],
    seconds: 0,
  };
  report.matcher = measureMatcher(options.matcherSizes);
  for (const [position, campaigns] of options.campaigns.entries()) {
    const db = await createBenchDatabase(options.sqlite ? 'sqlite' : 'mariadb');
    // Ctrl-C drops the database too (the service child gets the same signal and stops).
    const dropOnSignal = () => void db.drop().finally(() => process.exit(130));
    process.once('SIGINT', dropOnSignal);
    process.once('SIGTERM', dropOnSignal);
    try {
      log(`seeding ${campaigns} campaigns into a fresh ${db.kind} database`);
      const seeded = await seed(db, campaigns);
      report.seeds.push({ campaigns, seconds: seeded.seconds });
      log(`seeded in ${seeded.seconds.toFixed(1)} s`);
      if (position === 0) report.baselines = await measureBaselines(db, seeded, options);
      report.runs.push(await measureService(db, seeded, campaigns, options));
      if (position === 0)
        report.withoutThrottler = await measureFetchMax(
          db,
          seeded,
          campaigns,
          options,
          { RATE_LIMITS_ENABLED: 'false' },
          'rate limits off',
        );
      if (position === 0)
        report.observability = await measureObservabilityCost(db, seeded, campaigns, options);
    } finally {
      process.off('SIGINT', dropOnSignal);
      process.off('SIGTERM', dropOnSignal);
      await db.drop();
    }
  }
  report.seconds = (Date.now() - started) / 1000;
  const body = render(report);
  console.log(`\n${body}\n`);
  mkdirSync(join(options.out, '..'), { recursive: true });
  writeReport(options.out, body);
  log(`written to ${options.out}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
