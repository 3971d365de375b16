import { log } from '../common/log';
import {
  CLICK_SIGNING_SECRET,
  MEASURE_MARGIN,
  SERVICE_PORT,
  type Options,
} from '../common/options';
import { closedLoop, load, sum, type LoadResult } from '../load/load';
import { fetchRequests } from '../load/requests';
import { findDatabasePid, watchCpu } from '../measure/cpu';
import type { BenchDatabase, Seeded } from '../seed/database';
import { Child } from './processes';

/**
 * The built service started as production runs it, and the closed-loop variants measured
 * against fresh starts of it: rate limits or observability switched off. The main run's
 * phases are in bench/service/service-run.ts.
 */

/** Starts the built service with `extraEnv` on top of the benchmark's settings. */
export async function startService(
  db: BenchDatabase,
  options: Options,
  extraEnv: Record<string, string>,
  profileDir: string | null,
): Promise<{ service: Child; startSeconds: number }> {
  const started = Date.now();
  // As production runs it: `npm run start:prod` and the image give V8 this young generation.
  const args = ['--max-semi-space-size=32'];
  if (profileDir) {
    args.push(
      '--cpu-prof',
      `--cpu-prof-dir=${profileDir}`,
      '-r',
      './dist/bench/measure/exit-on-signal.js',
    );
  }
  // The service's own event-loop delay and GC pauses, per phase, over the IPC channel.
  args.push('-r', './dist/bench/measure/service-monitor.js');
  watchCpu('database', db.kind === 'mariadb' ? findDatabasePid() : null);
  const service = Child.start('service', [...args, 'dist/src/main.js'], {
    NODE_ENV: 'production',
    PORT: String(SERVICE_PORT),
    BASE_URL: `http://127.0.0.1:${SERVICE_PORT}`,
    DATABASE_URL: db.url,
    CLICK_SIGNING_SECRET,
    SESSION_SECRET: 'bench-session-secret-0123456789abcdefghij',
    RATE_LIMIT_PER_MINUTE: '1000000000',
    CLICK_RATE_LIMIT_PER_MINUTE: '1000000000',
    // The load generator stands for many people on one address, following links it has just
    // harvested: without these, nearly every click is judged ip_limit or too_fast, and the
    // click phase would time the unbilled path instead of billed clicks.
    CLICK_MIN_SECONDS: '0',
    CLICK_IP_LIMIT_CAMPAIGN_MINUTE: '1000000000',
    CLICK_IP_LIMIT_PER_HOUR: '1000000000',
    CLICK_IP_LIMIT_PER_DAY: '1000000000',
    // The open-loop generator stands for the proxy in front of the people whose addresses it
    // names in X-Forwarded-For (the mixed phase's clicks); the limits above stay relaxed for
    // the closed loop's clicks, which all come from 127.0.0.1.
    TRUSTED_PROXIES: '127.0.0.1',
    LOG_LEVEL: 'warn',
    ...extraEnv,
  });
  watchCpu('service', service.process.pid);
  service.sampleRss();
  await service.waitFor(`http://127.0.0.1:${SERVICE_PORT}/health/ready`, 1800);
  void options;
  return { service, startSeconds: (Date.now() - started) / 1000 };
}

/** One fetch-ads closed-loop phase of a freshly started service, and its impression rows. */
export interface FetchPhase {
  result: LoadResult;
  impressionsExpected: number;
  impressionsUnanswered: number;
  impressionsAdded: number;
}

/** Starts the service with `env` on top of the usual one and measures fetch-ads at its max. */
export async function measureFetchMax(
  db: BenchDatabase,
  seeded: Seeded,
  campaigns: number,
  options: Options,
  env: Record<string, string>,
  label: string,
): Promise<FetchPhase> {
  const before = await db.count('impressions');
  const { service } = await startService(db, options, env, null);
  try {
    const { requests } = fetchRequests(campaigns, seeded.keys);
    const base = {
      url: `http://127.0.0.1:${SERVICE_PORT}`,
      requests,
      connections: options.connections,
    };
    const probe = await load({ ...base, amount: 2_000 });
    const warm = await closedLoop(base, options.warmup, probe.requestsPerSecond);
    const result = await closedLoop(base, options.measure, warm.requestsPerSecond, MEASURE_MARGIN);
    log(`fetch-ads, ${label}: ${result.requestsPerSecond.toFixed(0)} req/s`);
    await new Promise((resolve) => setTimeout(resolve, 500));
    await service.stop();
    return {
      result,
      impressionsExpected: sum([probe, warm, result]).ok,
      impressionsUnanswered: sum([probe, warm, result]).timeouts,
      impressionsAdded: (await db.count('impressions')) - before,
    };
  } finally {
    await service.stop();
  }
}

/** The observability work the comparison switches off: access lines and metrics. */
const OBSERVABILITY_OFF = { ACCESS_LOG: 'false', METRICS_ENABLED: 'false' };

/**
 * What JSON access logs and metrics cost: the service with both off, alternated with the
 * usual service (off, on, off after the main run's phase), each a fresh start, so a slow
 * minute of this shared machine weighs on both sides rather than on one.
 */
export async function measureObservabilityCost(
  db: BenchDatabase,
  seeded: Seeded,
  campaigns: number,
  options: Options,
): Promise<{ on: FetchPhase[]; off: FetchPhase[] }> {
  const on: FetchPhase[] = [];
  const off: FetchPhase[] = [];
  const measure = (env: Record<string, string>, label: string) =>
    measureFetchMax(db, seeded, campaigns, options, env, label);
  off.push(await measure(OBSERVABILITY_OFF, 'logs and metrics off'));
  on.push(await measure({}, 'logs and metrics on'));
  off.push(await measure(OBSERVABILITY_OFF, 'logs and metrics off'));
  return { on, off };
}
