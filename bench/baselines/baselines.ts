import { log } from '../common/log';
import { BARE_PORT, INSERT_BATCH, MEASURE_MARGIN, type Options } from '../common/options';
import { closedLoop, load, type LoadResult } from '../load/load';
import { BROWSER_UA } from '../load/requests';
import { watchCpu } from '../measure/cpu';
import type { BenchDatabase, Seeded } from '../seed/database';
import { generateRequest, vocabularyFor } from '../seed/generate';
import { Child } from '../service/processes';
import { rawImpressionInsertRate } from './raw-insert';
import { impressionWriterRate } from './writer';

/**
 * What the service is compared with, measured minutes apart on the same machine: raw
 * multi-row inserts, the impression writer alone, and a bare Nest-on-Fastify server's POST
 * and 302.
 */

export interface Baselines {
  bareFetch: LoadResult;
  bareRedirect: LoadResult;
  rawInsertRowsPerSecond: number;
  writerRowsPerSecond: number;
  writerBatches: number;
  writerRows: number;
}

export async function measureBaselines(
  db: BenchDatabase,
  seeded: Seeded,
  options: Options,
): Promise<Baselines> {
  const insertSeconds = Math.max(3, Math.round(options.measure / 3));
  log(`raw ${INSERT_BATCH}-row inserts into impressions for ${insertSeconds} s`);
  const raw = await rawImpressionInsertRate(db, seeded, INSERT_BATCH, insertSeconds);
  log(`raw inserts: ${raw.rowsPerSecond.toFixed(0)} rows/s`);
  const writer = await impressionWriterRate(db.url, seeded, INSERT_BATCH, insertSeconds);
  log(`impression writer: ${writer.rowsPerSecond.toFixed(0)} rows/s in ${writer.batches} batches`);

  const bare = Child.start('bare', ['dist/bench/baselines/bare-server.js', String(BARE_PORT)], {
    NODE_ENV: 'production',
  });
  watchCpu('service', bare.process.pid);
  try {
    await bare.waitFor(`http://127.0.0.1:${BARE_PORT}/bare/click`, 60);
    const body = JSON.stringify(generateRequest(vocabularyFor(10_000), 1));
    const fetchBase = {
      url: `http://127.0.0.1:${BARE_PORT}`,
      connections: options.connections,
      requests: [
        {
          method: 'POST' as const,
          path: '/bare/fetch-ads',
          headers: { 'content-type': 'application/json', 'service-api-key': seeded.keys[0] },
          body,
        },
      ],
    };
    log('bare Nest-on-Fastify POST: closed loop');
    const probe = await load({ ...fetchBase, amount: 5_000 });
    const warm = await closedLoop(fetchBase, options.warmup, probe.requestsPerSecond);
    const bareFetch = await closedLoop(
      fetchBase,
      options.measure,
      warm.requestsPerSecond,
      MEASURE_MARGIN,
    );
    log(`bare POST ${bareFetch.requestsPerSecond.toFixed(0)} req/s`);
    const redirectBase = {
      url: `http://127.0.0.1:${BARE_PORT}`,
      connections: options.connections,
      requests: [
        { method: 'GET' as const, path: '/bare/click', headers: { 'user-agent': BROWSER_UA } },
      ],
    };
    const redirectProbe = await load({ ...redirectBase, amount: 5_000 });
    const redirectWarm = await closedLoop(
      redirectBase,
      options.warmup,
      redirectProbe.requestsPerSecond,
    );
    const bareRedirect = await closedLoop(
      redirectBase,
      options.measure,
      redirectWarm.requestsPerSecond,
    );
    log(`bare 302 ${bareRedirect.requestsPerSecond.toFixed(0)} req/s`);
    return {
      bareFetch,
      bareRedirect,
      rawInsertRowsPerSecond: raw.rowsPerSecond,
      writerRowsPerSecond: writer.rowsPerSecond,
      writerBatches: writer.batches,
      writerRows: writer.rows,
    };
  } finally {
    await bare.stop();
  }
}
