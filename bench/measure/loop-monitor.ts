import { constants, monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';

/**
 * A process's own stalls, for telling whose stall a latency spike is: its event-loop delay
 * (`monitorEventLoopDelay`) and its garbage-collection pauses (a PerformanceObserver for
 * 'gc' entries), both since the last reset. Used by the open-loop generator
 * (bench/load/open-loop-child.ts) and, preloaded, by the service
 * (bench/measure/service-monitor.ts).
 */

/** One process over one phase; times in ms. */
export interface LoopStats {
  /** Sampling interval of the delay monitor: a stall shorter than it may go unseen. */
  resolutionMs: number;
  /** Event-loop delay beyond the sampling interval. */
  delayP50: number;
  delayP99: number;
  delayP999: number;
  delayMax: number;
  samples: number;
  gcCount: number;
  /** Mark-compact (full) collections among them. */
  gcMajor: number;
  gcTotalMs: number;
  gcMaxMs: number;
  /** Pauses longer than 2 ms: the ones a 15 ms p99 can feel when several queue up. */
  gcOver2Ms: number;
}

export interface LoopMonitor {
  reset(): void;
  read(): LoopStats;
  stop(): void;
}

const NS_PER_MS = 1e6;
const round = (ms: number) => Math.round(ms * 100) / 100;

export function startLoopMonitor(resolutionMs: number): LoopMonitor {
  const delay = monitorEventLoopDelay({ resolution: resolutionMs });
  delay.enable();
  const gc = { count: 0, major: 0, total: 0, max: 0, over2: 0 };
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      gc.count++;
      gc.total += entry.duration;
      gc.max = Math.max(gc.max, entry.duration);
      if (entry.duration > 2) gc.over2++;
      // GC entries carry `detail.kind` (Node ≥ 16), which @types/node leaves out.
      const kind = (entry as { detail?: { kind?: number } }).detail?.kind;
      if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) gc.major++;
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  // On Node 20 the histogram holds each whole interval between two timer runs (about
  // `resolutionMs` when nothing blocks), so the delay is what exceeds the interval.
  const beyond = (ns: number) => round(Math.max(0, ns / NS_PER_MS - resolutionMs));
  return {
    reset: () => {
      delay.reset();
      Object.assign(gc, { count: 0, major: 0, total: 0, max: 0, over2: 0 });
    },
    read: () => ({
      resolutionMs,
      delayP50: beyond(delay.percentile(50)),
      delayP99: beyond(delay.percentile(99)),
      delayP999: beyond(delay.percentile(99.9)),
      delayMax: beyond(delay.max),
      samples: delay.count,
      gcCount: gc.count,
      gcMajor: gc.major,
      gcTotalMs: round(gc.total),
      gcMaxMs: round(gc.max),
      gcOver2Ms: gc.over2,
    }),
    stop: () => {
      delay.disable();
      observer.disconnect();
    },
  };
}
