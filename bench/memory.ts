import 'reflect-metadata';
import { createBenchDatabase, seed } from './database';
import { closedLoop, load } from './load';
import { log } from './log';
import { MEASURE_MARGIN, parseOptions, SERVICE_PORT } from './options';
import { fetchRequests } from './requests';
import { startService } from './service-phases';

/**
 * `npm run bench:memory -- --campaigns 5000000`: the service's memory at a size the full
 * benchmark does not run (its seeding and start-up take minutes), measured once and recorded
 * by hand in BENCHMARKS.md. Seeds a fresh database, starts the built service, and prints its
 * start-up time, its RSS when ready, and its peak RSS through a closed loop of fetch-ads (the
 * usual phase length, or `--quick`'s) with an index rebuild under way or not, as it happens.
 */

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  for (const campaigns of options.campaigns) {
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
        const base = {
          url: `http://127.0.0.1:${SERVICE_PORT}`,
          requests,
          connections: options.connections,
        };
        const probe = await load({ ...base, amount: 2_000 });
        const measured = await closedLoop(
          base,
          options.measure,
          probe.requestsPerSecond,
          MEASURE_MARGIN,
        );
        const row = [
          campaigns.toLocaleString('en-US'),
          `${startSeconds.toFixed(1)} s`,
          `${readyRss.toFixed(0)} MiB`,
          `${service.peakRssMiB.toFixed(0)} MiB`,
          `${measured.requestsPerSecond.toFixed(0)} req/s, p99 ${measured.p99} ms`,
        ];
        console.log(
          [
            '',
            '| campaigns | start-up to ready | RSS when ready | peak RSS under load | fetch-ads (closed loop) |',
            '| --- | --- | --- | --- | --- |',
            `| ${row.join(' | ')} |`,
            '',
          ].join('\n'),
        );
      } finally {
        await service.stop();
      }
    } finally {
      process.off('SIGINT', dropOnSignal);
      await db.drop();
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
