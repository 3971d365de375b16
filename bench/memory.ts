import 'reflect-metadata';
import { log } from './common/log';
import { MEASURE_MARGIN, parseOptions, SERVICE_PORT, type Options } from './common/options';
import { closedLoop, load } from './load/load';
import { fetchRequests } from './load/requests';
import { createBenchDatabase, seed } from './seed/database';
import { startService } from './service/service-phases';

/**
 * The service's memory at a size the full benchmark does not run (its seeding and start-up
 * take minutes), measured once and recorded by hand in BENCHMARKS.md:
 *
 *   npm run bench -- --memory 5000000            (or: npm run bench:memory -- --campaigns 5000000)
 *
 * Seeds a fresh database, starts the built service, and prints its start-up time, its RSS
 * when ready, and its peak RSS through a closed loop of fetch-ads (the usual phase length, or
 * `--quick`'s). BENCHMARKS.md's generated section is left alone.
 */

const HEADER = [
  '| campaigns | start-up to ready | RSS when ready | peak RSS under load | fetch-ads (closed loop) |',
  '| --- | --- | --- | --- | --- |',
];

export async function measureMemory(sizes: number[], options: Options): Promise<string> {
  const rows: string[] = [];
  for (const campaigns of sizes) rows.push(await measureOne(campaigns, options));
  return [...HEADER, ...rows].join('\n');
}

async function measureOne(campaigns: number, options: Options): Promise<string> {
  const db = await createBenchDatabase(options.sqlite ? 'sqlite' : 'mariadb');
  const dropOnSignal = () => void db.drop().finally(() => process.exit(130));
  process.once('SIGINT', dropOnSignal);
  try {
    log(`seeding ${campaigns} campaigns into a fresh ${db.kind} database`);
    const seeded = await seed(db, campaigns);
    log(`seeded in ${seeded.seconds.toFixed(1)} s`);
    const { service, startSeconds } = await startService(db, options, {}, null);
    const readyRss = service.rssMiB();
    log(`ready in ${startSeconds.toFixed(1)} s, RSS ${readyRss.toFixed(0)} MiB`);
    try {
      const { requests } = fetchRequests(campaigns, seeded.keys);
      const url = `http://127.0.0.1:${SERVICE_PORT}`;
      const base = { url, requests, connections: options.connections };
      const probe = await load({ ...base, amount: 2_000 });
      const rate = probe.requestsPerSecond;
      const measured = await closedLoop(base, options.measure, rate, MEASURE_MARGIN);
      const cells = [
        campaigns.toLocaleString('en-US'),
        `${startSeconds.toFixed(1)} s`,
        `${readyRss.toFixed(0)} MiB`,
        `${service.peakRssMiB.toFixed(0)} MiB`,
        `${measured.requestsPerSecond.toFixed(0)} req/s, p99 ${measured.p99} ms`,
      ];
      return `| ${cells.join(' | ')} |`;
    } finally {
      await service.stop();
    }
  } finally {
    process.off('SIGINT', dropOnSignal);
    await db.drop();
  }
}

if (require.main === module) {
  const options = parseOptions(process.argv.slice(2));
  measureMemory(options.campaigns, options)
    .then((table) => console.log(`\n${table}\n`))
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}
