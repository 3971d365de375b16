import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { log } from '../common/log';
import { MEASURE_MARGIN, ROOT, SERVICE_PORT, type Options } from '../common/options';
import { closedLoop, load, sum, type LoadResult } from '../load/load';
import { GeneratorProcess } from '../load/open-loop-process';
import { clickRequests, fetchRequests, fetchSpecs, viewRequests } from '../load/requests';
import { topSelfTime } from '../measure/profile-summary';
import type { BenchDatabase, Seeded } from '../seed/database';
import {
  billedClickIds,
  CONVERSION_BATCHES,
  measureConversions,
  type ConversionPhase,
} from './conversion-phase';
import { fixedRate, type FixedRateResult } from './fixed-rate';
import { linksForMixed, measureMixed, type MixedResult } from './mixed-phase';
import { startService } from './service-phases';

/**
 * The main run against one start of the service: fetch-ads at its max (closed loop) and at
 * half of it (open loop, in the generator's own process), clicks on the links it served,
 * views of its ads, conversions of the billed clicks (batches of 1 and 100), then the mixed
 * phase; the rows are counted once the service has drained and stopped.
 */

export interface ServiceRun {
  campaigns: number;
  startSeconds: number;
  idleRssMiB: number;
  peakRssMiB: number;
  fetchMax: LoadResult;
  fetchFixed: FixedRateResult | null;
  fixedRate: number;
  clicks: LoadResult | null;
  /** Views of the ads served (`POST /api/ad-views/…`), closed loop; repeats once URLs run out. */
  views: LoadResult | null;
  /** `POST /api/conversions` of billed clicks' ids, a phase per batch size (1, 100). */
  conversions: ConversionPhase[];
  /** Conversion rows added, counted once the service has stopped (= items accepted). */
  conversionsAdded: number;
  mixed: MixedResult | null;
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
  /** Distinct client addresses among the clicks recorded (the mixed phase's are spread). */
  clickAddresses: number;
  errors: number;
  profile: { share: number; name: string }[] | null;
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
  const conversionsBefore = await db.count('conversions');
  const profileDir = options.profile ? join(ROOT, 'bench-profiles', `service-${campaigns}`) : null;
  if (profileDir) rmSync(profileDir, { recursive: true, force: true });
  const { service, startSeconds } = await startService(db, options, {}, profileDir);
  const idleRssMiB = service.rssMiB();
  log(
    `service up in ${startSeconds.toFixed(1)} s with ${campaigns} campaigns, RSS ${idleRssMiB.toFixed(0)} MiB`,
  );
  const url = `http://127.0.0.1:${SERVICE_PORT}`;
  const { requests, links, views: viewUrls } = fetchRequests(campaigns, seeded.keys);
  const base = { url, requests, connections: options.connections };
  const fetchPhases: LoadResult[] = [];
  const clickPhases: LoadResult[] = [];
  // The open-loop generator's process, for the fixed-rate phases and the mixed one.
  const generator = await GeneratorProcess.start('fetch-ads');
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

    const rate = fetchMax.requestsPerSecond / 2;
    log(
      `fetch-ads: fixed rate ${rate.toFixed(0)} req/s (50% of max), generator in its own process`,
    );
    const fetchSet = fetchSpecs(campaigns, seeded.keys);
    // The generator keeps only the links the mixed phase's clicks will follow (the closed
    // loops above harvest those of the click phase), and stops reading answers once it has
    // them: its heap stays flat, unlike with the ~650k links it used to keep.
    const sample: string[] = [];
    const wanted = linksForMixed(rate, options.measure);
    const fixedPhase = async (seconds: number) => {
      const harvest = wanted - sample.length;
      const stream = { name: 'fetch-ads', rate, connections: options.connections, harvest };
      const phase = await fixedRate(service, generator, url, seconds, {
        ...stream,
        requests: fetchSet,
      });
      sample.push(...phase.links);
      fetchPhases.push(phase.result);
      return phase.result;
    };
    await fixedPhase(options.warmup);
    const fetchFixed = await fixedPhase(options.measure);
    log(
      `fetch-ads at ${rate.toFixed(0)} req/s: p50 ${fetchFixed.p50} ms, p99 ${fetchFixed.p99} ms, p99.9 ${fetchFixed.p999} ms; ` +
        `loop delay p99/max: generator ${fetchFixed.generator.delayP99}/${fetchFixed.generator.delayMax} ms, ` +
        `service ${fetchFixed.service?.delayP99 ?? '?'}/${fetchFixed.service?.delayMax ?? '?'} ms`,
    );

    const clickSet = clickRequests(links);
    const clickBase = { url, requests: clickSet.requests, connections: options.connections };
    log(`clicks: closed loop over ${links.length} harvested links`);
    const clickProbe = await load({ ...clickBase, amount: Math.min(1_000, links.length) });
    clickPhases.push(clickProbe);
    const clickWarm = await closedLoop(clickBase, options.warmup, clickProbe.requestsPerSecond);
    clickPhases.push(clickWarm);
    const remaining = links.length - clickSet.used();
    const clicksWanted = Math.round(clickWarm.requestsPerSecond * options.measure * MEASURE_MARGIN);
    if (remaining < clicksWanted)
      log(`only ${remaining} unused links for ${clicksWanted} clicks: some repeat (invalid)`);
    const clicks = await load({
      ...clickBase,
      amount: Math.max(options.connections, clicksWanted),
    });
    clickPhases.push(clicks);
    log(`clicks ${clicks.requestsPerSecond.toFixed(0)} req/s, p99 ${clicks.p99} ms`);

    // Views: a warm-up and a measured closed loop, as for clicks, without the probe.
    const viewSet = viewRequests(viewUrls);
    const viewBase = { url, requests: viewSet.requests, connections: options.connections };
    log(`views: closed loop over ${viewUrls.length} harvested view URLs`);
    const viewWarm = await closedLoop(viewBase, options.warmup, clickWarm.requestsPerSecond);
    const views = await closedLoop(
      viewBase,
      options.measure,
      viewWarm.requestsPerSecond,
      MEASURE_MARGIN,
    );
    if (viewSet.used() > viewUrls.length)
      log(`only ${viewUrls.length} view URLs for ${viewSet.used()} views: some repeat`);
    log(`views ${views.requestsPerSecond.toFixed(0)} req/s, p99 ${views.p99} ms`);

    // Conversions of the billed clicks (stored by now: the views took seconds), each batch
    // size a probe, a warm-up and a measured closed loop.
    const clickIds = await billedClickIds(db, seeded);
    const conversions: ConversionPhase[] = [];
    if (clickIds.length === 0) log('conversions: no billed clicks, not measured');
    else
      for (const batch of CONVERSION_BATCHES)
        conversions.push(await measureConversions(url, clickIds, seeded, batch, options));

    const mixed = await measureMixed({
      db,
      seeded,
      service,
      url,
      fetchGenerator: generator,
      fetchRequests: fetchSet,
      links: sample,
      rate,
      seconds: options.measure,
      connections: options.connections,
    });
    fetchPhases.push(mixed.fetch);
    clickPhases.push(mixed.clicks);
    log(
      `mixed: fetch-ads p99 ${mixed.fetch.p99} ms, p99.9 ${mixed.fetch.p999} ms; clicks p99 ${mixed.clicks.p99} ms; stats p99 ${mixed.stats.p99} ms`,
    );

    // Requests that timed out may still be in the service: stopping it drains its batches
    // (SIGTERM runs the shutdown hooks), and the rows are counted only after that.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const peakRssMiB = service.peakRssMiB;
    await service.stop(profileDir ? 'SIGUSR2' : 'SIGTERM');
    const fetchTotals = sum(fetchPhases);
    const clickTotals = sum(clickPhases);
    // autocannon's errors include its timeouts.
    const errors =
      fetchTotals.errors +
      clickTotals.errors +
      mixed.stats.errors +
      viewWarm.errors +
      views.errors +
      conversions.reduce((n, c) => n + c.errors, 0);
    const profile = profileDir ? summariseProfile(profileDir) : null;
    return {
      campaigns,
      startSeconds,
      idleRssMiB,
      peakRssMiB,
      fetchMax,
      fetchFixed,
      fixedRate: rate,
      clicks,
      views,
      conversions,
      conversionsAdded: (await db.count('conversions')) - conversionsBefore,
      mixed,
      impressionsExpected: fetchTotals.ok,
      impressionsUnanswered: fetchTotals.timeouts,
      impressionsAdded: (await db.count('impressions')) - impressionsBefore,
      clicksSent: clickTotals.responses,
      clicksUnanswered: clickTotals.timeouts,
      clicksAdded: (await db.count('clicks')) - clicksBefore,
      clicksBilled: (await db.count('clicks', "status = 'billed'")) - billedBefore,
      clicksOverBudget: (await db.count('clicks', "status = 'over_budget'")) - overBefore,
      linksHarvested: links.length + sample.length,
      clickAddresses: Number(
        (
          await db.query<{ n: number | string }>('SELECT COUNT(DISTINCT ip_hash) AS n FROM clicks')
        )[0].n,
      ),
      errors,
      profile,
    };
  } finally {
    await generator.close();
    await service.stop();
  }
}

function summariseProfile(dir: string): { share: number; name: string }[] | null {
  if (!existsSync(dir)) return null;
  const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
  return file ? topSelfTime(join(dir, file)) : null;
}
