import { log } from '../common/log';
import { dashboardStatsRequest } from '../load/dashboard-load';
import type { RequestSpec } from '../load/open-loop';
import { GeneratorProcess } from '../load/open-loop-process';
import { clickSpecs } from '../load/requests';
import type { LoopStats } from '../measure/loop-monitor';
import type { BenchDatabase, Seeded } from '../seed/database';
import {
  fixedRateResult,
  measureRun,
  rateResult,
  type FixedRateResult,
  type RateResult,
} from './fixed-rate';
import type { Child } from './processes';

/**
 * fetch-ads at half its maximum while the rest of the service's day goes on: people follow
 * ad links and publishers look at their stats. fetch-ads runs in its generator's process as
 * in the fixed-rate phase; the clicks and the stats requests come from a second generator
 * process, which starts LEAD_SECONDS before the measured window and ends as long after, so
 * that the window sees them at their rates throughout.
 */

/** Clicks at a fifth of the fetch-ads rate: a high click-through rate, so a heavy load. */
export const CLICK_SHARE = 1 / 5;
/** A few dashboard views a second. */
export const STATS_RATE = 3;
const LEAD_SECONDS = 2;

export interface MixedResult {
  rate: number;
  fetch: FixedRateResult;
  clickRate: number;
  clicks: RateResult;
  statsRate: number;
  stats: RateResult;
  /** The clicks and stats generator's own process. */
  background: LoopStats;
  /** Clicks that had to follow a link a second time (judged duplicates, not billed). */
  clicksRepeated: number;
}

/** Harvested links the mixed phase's clicks need: one per click, each followed once. */
export function linksForMixed(rate: number, measureSeconds: number): number {
  return Math.ceil(rate * CLICK_SHARE * (measureSeconds + 2 * LEAD_SECONDS));
}

export async function measureMixed(args: {
  db: BenchDatabase;
  seeded: Seeded;
  service: Child;
  url: string;
  fetchGenerator: GeneratorProcess;
  fetchRequests: RequestSpec[];
  links: string[];
  rate: number;
  seconds: number;
  connections: number;
}): Promise<MixedResult> {
  const { service, url, fetchGenerator, rate, seconds } = args;
  const stats = await dashboardStatsRequest(args.db, args.seeded, url);
  const clickRate = rate * CLICK_SHARE;
  const backgroundSeconds = seconds + 2 * LEAD_SECONDS;
  const clicksWanted = Math.round(clickRate * backgroundSeconds);
  const clicksRepeated = Math.max(0, clicksWanted - args.links.length);
  if (clicksRepeated > 0) log(`only ${args.links.length} links for ${clicksWanted} clicks`);
  log(
    `mixed: fetch-ads ${rate.toFixed(0)} req/s, clicks ${clickRate.toFixed(0)}/s over spread addresses, stats ${STATS_RATE}/s`,
  );
  const background = await GeneratorProcess.start('clicks and stats');
  try {
    const backgroundRun = background.run(url, backgroundSeconds, [
      {
        name: 'clicks',
        rate: clickRate,
        connections: args.connections,
        requests: clickSpecs(args.links),
        spreadAddresses: true,
      },
      // A browser opens at most 6 connections to a host.
      { name: 'stats', rate: STATS_RATE, connections: 6, requests: [stats] },
    ]);
    // Awaited below; until then a crash of that process must not go unhandled.
    backgroundRun.catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, LEAD_SECONDS * 1000));
    const measured = await measureRun(service, url, [fetchGenerator, background], () =>
      fetchGenerator.run(url, seconds, [
        { name: 'fetch-ads', rate, connections: args.connections, requests: args.fetchRequests },
      ]),
    );
    const behind = await backgroundRun;
    const [clicks, statsFigures] = behind.streams;
    return {
      rate,
      fetch: fixedRateResult(measured),
      clickRate,
      // Their own windows are longer than the measured one: no CPU shares of their own.
      clicks: rateResult(clicks, {}),
      statsRate: STATS_RATE,
      stats: rateResult(statsFigures, {}),
      background: behind.loop,
      clicksRepeated,
    };
  } finally {
    await background.close();
  }
}
