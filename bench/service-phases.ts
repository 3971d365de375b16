import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchDatabase, Seeded } from './database';
import { findDatabasePid, watchCpu } from './cpu';
import { closedLoop, load, sum, type LoadResult } from './load';
import { log } from './log';
import { openLoop } from './open-loop';
import { MEASURE_MARGIN, ROOT, SERVICE_PORT, type Options } from './options';
import { Child } from './processes';
import { topSelfTime } from './profile-summary';
import { clickRequests, fetchRequests } from './requests';

/**
 * The built service started as production runs it, and the phases measured against it:
 * fetch-ads at its max and at a fixed rate, clicks on the links it served, and the
 * variants with rate limits or observability switched off.
 */

export interface ServiceRun {
  campaigns: number;
  startSeconds: number;
  idleRssMiB: number;
  peakRssMiB: number;
  fetchMax: LoadResult;
  fetchFixed: LoadResult | null;
  fixedRate: number;
  clicks: LoadResult | null;
  impressionsExpected: number;
  /** fetch-ads requests that timed out: the service may still have recorded them. */
  impressionsUnanswered: number;
  impressionsAdded: number;
  clicksSent: number;
  clicksUnanswered: number;
  clicksAdded: number;
  clicksBilled: number;
  clicksOverBudget: number;
  linksHarvested: number;
  errors: number;
  profile: { share: number; name: string }[] | null;
}

async function startService(
  db: BenchDatabase,
  options: Options,
  extraEnv: Record<string, string>,
  profileDir: string | null,
): Promise<{ service: Child; startSeconds: number }> {
  const started = Date.now();
  const args = profileDir
    ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, '-r', './dist/bench/exit-on-signal.js']
    : [];
  watchCpu('database', db.kind === 'mariadb' ? findDatabasePid() : null);
  const service = Child.start('service', [...args, 'dist/src/main.js'], {
    NODE_ENV: 'production',
    PORT: String(SERVICE_PORT),
    BASE_URL: `http://127.0.0.1:${SERVICE_PORT}`,
    DATABASE_URL: db.url,
    CLICK_SIGNING_SECRET: 'bench-click-signing-secret-0123456789abcdef',
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
    LOG_LEVEL: 'warn',
    ...extraEnv,
  });
  watchCpu('service', service.process.pid);
  service.sampleRss();
  await service.waitFor(`http://127.0.0.1:${SERVICE_PORT}/health/ready`, 1800);
  void options;
  return { service, startSeconds: (Date.now() - started) / 1000 };
}

export async function measureService(
  db: BenchDatabase,
  seeded: Seeded,
  campaigns: number,
  options: Options,
): Promise<ServiceRun> {
  const impressionsBefore = await db.count('impressions');
  const clicksBefore = await db.count('clicks');
  const billedBefore = await db.count('clicks', "status = 'billed'");
  const overBefore = await db.count('clicks', "status = 'over_budget'");
  const profileDir = options.profile ? join(ROOT, 'bench-profiles', `service-${campaigns}`) : null;
  if (profileDir) rmSync(profileDir, { recursive: true, force: true });
  const { service, startSeconds } = await startService(db, options, {}, profileDir);
  const idleRssMiB = service.rssMiB();
  log(
    `service up in ${startSeconds.toFixed(1)} s with ${campaigns} campaigns, RSS ${idleRssMiB.toFixed(0)} MiB`,
  );
  const url = `http://127.0.0.1:${SERVICE_PORT}`;
  const { requests, links } = fetchRequests(campaigns, seeded.keys);
  const base = { url, requests, connections: options.connections };
  const fetchPhases: LoadResult[] = [];
  const clickPhases: LoadResult[] = [];
  try {
    log('fetch-ads: closed loop (warm-up, then measured)');
    const probe = await load({ ...base, amount: 2_000 });
    fetchPhases.push(probe);
    const warm = await closedLoop(base, options.warmup, probe.requestsPerSecond);
    fetchPhases.push(warm);
    const fetchMax = await closedLoop(
      base,
      options.measure,
      warm.requestsPerSecond,
      MEASURE_MARGIN,
    );
    fetchPhases.push(fetchMax);
    log(`fetch-ads max ${fetchMax.requestsPerSecond.toFixed(0)} req/s, p99 ${fetchMax.p99} ms`);

    const fixedRate = fetchMax.requestsPerSecond / 2;
    log(`fetch-ads: fixed rate ${fixedRate.toFixed(0)} req/s (50% of max)`);
    fetchPhases.push(await openLoop({ ...base, rate: fixedRate, seconds: options.warmup }));
    const fetchFixed = await openLoop({ ...base, rate: fixedRate, seconds: options.measure });
    fetchPhases.push(fetchFixed);
    log(
      `fetch-ads at ${fixedRate.toFixed(0)} req/s: p50 ${fetchFixed.p50} ms, p99 ${fetchFixed.p99} ms`,
    );

    const linksHarvested = links.length;
    const clickSet = clickRequests(links);
    const clickBase = { url, requests: clickSet.requests, connections: options.connections };
    log(`clicks: closed loop over ${linksHarvested} harvested links`);
    const clickProbe = await load({ ...clickBase, amount: Math.min(1_000, links.length) });
    clickPhases.push(clickProbe);
    const clickWarm = await closedLoop(clickBase, options.warmup, clickProbe.requestsPerSecond);
    clickPhases.push(clickWarm);
    const remaining = links.length - clickSet.used();
    const wanted = Math.round(clickWarm.requestsPerSecond * options.measure * MEASURE_MARGIN);
    if (remaining < wanted)
      log(`only ${remaining} unused links for ${wanted} clicks: some repeat (invalid)`);
    const clicks = await load({ ...clickBase, amount: Math.max(options.connections, wanted) });
    clickPhases.push(clicks);
    log(`clicks ${clicks.requestsPerSecond.toFixed(0)} req/s, p99 ${clicks.p99} ms`);

    // Requests that timed out may still be in the service: stopping it drains its batches
    // (SIGTERM runs the shutdown hooks), and the rows are counted only after that.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const peakRssMiB = service.peakRssMiB;
    await service.stop(profileDir ? 'SIGUSR2' : 'SIGTERM');
    const fetchTotals = sum(fetchPhases);
    const clickTotals = sum(clickPhases);
    // autocannon's errors include its timeouts.
    const errors = fetchTotals.errors + clickTotals.errors;
    const profile = profileDir ? summariseProfile(profileDir) : null;
    return {
      campaigns,
      startSeconds,
      idleRssMiB,
      peakRssMiB,
      fetchMax,
      fetchFixed,
      fixedRate,
      clicks,
      impressionsExpected: fetchTotals.ok,
      impressionsUnanswered: fetchTotals.timeouts,
      impressionsAdded: (await db.count('impressions')) - impressionsBefore,
      clicksSent: clickTotals.responses,
      clicksUnanswered: clickTotals.timeouts,
      clicksAdded: (await db.count('clicks')) - clicksBefore,
      clicksBilled: (await db.count('clicks', "status = 'billed'")) - billedBefore,
      clicksOverBudget: (await db.count('clicks', "status = 'over_budget'")) - overBefore,
      linksHarvested,
      errors,
      profile,
    };
  } finally {
    await service.stop();
  }
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

function summariseProfile(dir: string): { share: number; name: string }[] | null {
  if (!existsSync(dir)) return null;
  const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
  return file ? topSelfTime(join(dir, file)) : null;
}
