import type { LoopStats } from '../measure/loop-monitor';
import type { Timing } from '../measure/service-metrics';
import type { FixedRateResult } from '../service/fixed-rate';
import { fmt, k, markdownTable } from './format';
import type { Report } from './report.types';

/**
 * The fixed-rate phases seen from every side, to tell whose stall a slow answer is: the
 * generator's (its own process), the service's, or the database's commits that every ad
 * waits for. Event-loop delay is what the loop ran late beyond its monitor's interval; GC
 * pauses from a PerformanceObserver in each process; the service's own timings from its
 * Prometheus histograms (bucket bounds, hence "≤").
 */

const ms = (n: number) => fmt(n, n < 10 ? 1 : 0);
const delay = (s: LoopStats | null) => (s ? `${ms(s.delayP99)} / ${ms(s.delayMax)}` : '–');
const gc = (s: LoopStats | null) =>
  s
    ? `${ms(s.gcMaxMs)} (${fmt(s.gcCount)}, ${fmt(s.gcMajor)} full, ${fmt(s.gcOver2Ms)} > 2 ms; ${ms(s.gcTotalMs)} in all)`
    : '–';

const bound = (ms: number | null) => (ms === null ? '> 10 s' : `≤ ${fmt(ms, ms < 10 ? 1 : 0)}`);
const timing = (t: Timing | null) =>
  t ? `${bound(t.p50)} / ${bound(t.p99)} / ${bound(t.slowest)} (${fmt(t.count)})` : '–';

export function stallTable(report: Report): string {
  const rows: string[][] = [];
  const add = (name: string, r: FixedRateResult) =>
    rows.push([
      name,
      fmt(r.requestsPerSecond),
      `${r.p50} / ${r.p99} / ${r.p999} / ${r.max}`,
      delay(r.generator),
      gc(r.generator),
      delay(r.service),
      gc(r.service),
      timing(r.timings.fetchAds),
      [
        `impressions ${timing(r.timings.impressionCommits)}`,
        ...(r.timings.clickCommits ? [`clicks ${timing(r.timings.clickCommits)}`] : []),
      ].join('; '),
    ]);
  for (const run of report.runs) {
    if (run.fetchFixed) add(`fetch-ads, ${k(run.campaigns)}, fixed rate`, run.fetchFixed);
    if (run.mixed) add(`fetch-ads, ${k(run.campaigns)}, mixed`, run.mixed.fetch);
  }
  return markdownTable(
    [
      'phase',
      'req/s',
      'latency p50 / p99 / p99.9 / max ms',
      'generator loop delay p99 / max ms',
      'generator GC max pause ms (pauses)',
      'service loop delay p99 / max ms',
      'service GC max pause ms (pauses)',
      "service's own time for fetch-ads p50 / p99 / max ms (requests)",
      'database: batch commits p50 / p99 / max ms (batches)',
    ],
    rows,
  );
}

/** What ran beside fetch-ads in the mixed phases, and the loop of the process sending it. */
export function mixedTable(report: Report): string {
  const rows: string[][] = [];
  for (const run of report.runs) {
    const mixed = run.mixed;
    if (!mixed) continue;
    const generator = `${delay(mixed.background)}; GC ${gc(mixed.background)}`;
    for (const [name, r, rate] of [
      ['clicks (spread over 198.18.0.0/15)', mixed.clicks, mixed.clickRate],
      ['`GET /api/stats`, 30 days (dashboard)', mixed.stats, mixed.statsRate],
    ] as const) {
      rows.push([
        `${k(run.campaigns)}: ${name}`,
        `${fmt(rate, rate < 10 ? 1 : 0)} / ${fmt(r.requestsPerSecond, r.requestsPerSecond < 10 ? 1 : 0)}`,
        `${r.p50} / ${r.p99} / ${r.p999} / ${r.max}`,
        fmt(r.responses),
        fmt(r.non2xx - r.status3xx),
        fmt(r.errors),
        generator,
      ]);
    }
    if (mixed.clicksRepeated > 0)
      rows.push([
        `${k(run.campaigns)}: clicks on a link already followed`,
        '',
        '',
        fmt(mixed.clicksRepeated),
        '',
        '',
        '',
      ]);
  }
  return markdownTable(
    [
      'beside fetch-ads',
      'req/s asked / answered',
      'latency p50 / p99 / p99.9 / max ms',
      'responses',
      'non-2xx/3xx',
      'errors',
      'their generator: loop delay p99 / max ms; GC',
    ],
    rows,
  );
}
