import type { LoadResult } from '../load/load';
import type { StreamResult, StreamSpec } from '../load/open-loop';
import type { RunResult } from '../load/open-loop-child';
import type { GeneratorProcess } from '../load/open-loop-process';
import { measureCpu, watchCpu } from '../measure/cpu';
import type { LoopStats } from '../measure/loop-monitor';
import { scrapeMetrics, timingsBetween, type ServiceTimings } from '../measure/service-metrics';
import type { Child } from './processes';

/**
 * A fixed-rate phase seen from every side: the latencies the generator measured, its own
 * event-loop delay and GC, the service's (bench/measure/service-monitor.ts) over the same
 * run, and the service's own timings of fetch-ads and of its database commits
 * (bench/measure/service-metrics.ts).
 */

/** A fixed-rate stream's figures, with the slowest answer. */
export interface RateResult extends LoadResult {
  max: number;
}

export interface FixedRateResult extends RateResult {
  /** The generator's process over the run. */
  generator: LoopStats;
  /** The service over the run; null if its monitor did not answer. */
  service: LoopStats | null;
  timings: ServiceTimings;
}

export function rateResult(stream: StreamResult, cpu: Record<string, number>): RateResult {
  return { ...stream.figures, cpu };
}

export interface MeasuredRun {
  result: RunResult;
  service: LoopStats | null;
  timings: ServiceTimings;
  cpu: Record<string, number>;
}

/**
 * Runs `run` (a generator's run) with the service's monitor reset just before and read just
 * after, its metrics scraped on either side, and the CPU of every process over it; the
 * generators' CPU counts as the load generator's, with the benchmark's own (which only
 * waits here).
 */
export async function measureRun(
  service: Child,
  url: string,
  generators: GeneratorProcess[],
  run: () => Promise<RunResult>,
): Promise<MeasuredRun> {
  const names = generators.map((g) => `generator ${g.name}`);
  generators.forEach((g, i) => watchCpu(names[i], g.pid));
  try {
    const before = await scrapeMetrics(url);
    await service.ask('loop:reset', 'loop:reset');
    const { result, cpu } = await measureCpu(run);
    const read = await service.ask<{ stats: LoopStats }>('loop:read', 'loop');
    const timings = timingsBetween(before, await scrapeMetrics(url));
    for (const name of names) {
      cpu['load generator'] = (cpu['load generator'] ?? 0) + (cpu[name] ?? 0);
      delete cpu[name];
    }
    return { result, service: read?.stats ?? null, timings, cpu };
  } finally {
    names.forEach((name) => watchCpu(name, null));
  }
}

/** The figures of the measured run's first stream, with every side's. */
export function fixedRateResult(measured: MeasuredRun): FixedRateResult {
  return {
    ...rateResult(measured.result.streams[0], measured.cpu),
    generator: measured.result.loop,
    service: measured.service,
    timings: measured.timings,
  };
}

/** One fixed-rate fetch-ads run in `generator`'s process, measured from every side. */
export async function fixedRate(
  service: Child,
  generator: GeneratorProcess,
  url: string,
  seconds: number,
  stream: StreamSpec,
): Promise<{ result: FixedRateResult; links: string[] }> {
  const measured = await measureRun(service, url, [generator], () =>
    generator.run(url, seconds, [stream]),
  );
  return { result: fixedRateResult(measured), links: measured.result.streams[0].links };
}
