import { Injectable, OnModuleInit } from '@nestjs/common';
import {
  collectDefaultMetrics,
  Counter,
  type CounterConfiguration,
  Gauge,
  Histogram,
  type HistogramConfiguration,
  Registry,
} from 'prom-client';
import { AppConfig } from '@/config/app-config';

/** A mysql2 pool's connections at one moment. */
export interface PoolUsage {
  inUse: number;
  idle: number;
  /** Callers waiting for a connection. */
  waiting: number;
}

/**
 * Figures their owners already keep, read only when Prometheus scrapes: the modules that
 * own them register a reader, so nothing is added to their hot paths and this module
 * depends on none of them.
 */
export interface MetricReaders {
  campaignIndexSize: () => number;
  clicksLost: () => number;
  databasePool: () => PoolUsage | null;
}

export type BatchWriter = 'impressions' | 'clicks';

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const BATCH_BUCKETS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000];
const REBUILD_BUCKETS = [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 120];

/**
 * Every instrument when METRICS_ENABLED=false: any property is itself and any call returns
 * itself, so `counter.labels(x).inc()` does nothing, and the counting code needs no branches.
 */
const NOOP: unknown = new Proxy(() => NOOP, { get: () => NOOP, apply: () => NOOP });

/**
 * The instruments of `GET /metrics`, on a registry of this app instance's own (not
 * prom-client's global one, so several instances in one process never collide).
 */
@Injectable()
export class MetricsService implements OnModuleInit {
  readonly registry = new Registry();
  private readonly readers: Partial<MetricReaders> = {};
  /** METRICS_ENABLED: false, no instrument records anything and `/metrics` answers 404. */
  readonly enabled: boolean;

  readonly httpRequests: Counter<'method' | 'route' | 'status'>;
  readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  readonly adsServed: Counter;
  readonly adNoFill: Counter<'reason'>;
  readonly clicks: Counter<'outcome' | 'reason'>;
  readonly batchSize: Histogram<'writer'>;
  readonly batchCommitDuration: Histogram<'writer'>;
  readonly campaignIndexRebuilds: Counter<'result'>;
  readonly campaignIndexRebuildDuration: Histogram;
  readonly throttled: Counter<'route'>;

  constructor(config?: AppConfig) {
    this.enabled = config?.metricsEnabled ?? true;
    const registers = [this.registry];
    const counter = <L extends string>(options: CounterConfiguration<L>): Counter<L> =>
      this.enabled ? new Counter({ ...options, registers }) : (NOOP as Counter<L>);
    const histogram = <L extends string>(options: HistogramConfiguration<L>): Histogram<L> =>
      this.enabled ? new Histogram({ ...options, registers }) : (NOOP as Histogram<L>);
    this.httpRequests = counter({
      name: 'adline_http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status.',
      labelNames: ['method', 'route', 'status'] as const,
    });
    this.httpDuration = histogram({
      name: 'adline_http_request_duration_seconds',
      help: 'Time from receiving a request to sending its answer, by method, route pattern and status.',
      labelNames: ['method', 'route', 'status'] as const,
      buckets: LATENCY_BUCKETS,
    });
    this.adsServed = counter({
      name: 'adline_ads_served_total',
      help: 'Ads answered by fetch-ads (each with its impression committed).',
    });
    this.adNoFill = counter({
      name: 'adline_ad_no_fill_total',
      help: 'fetch-ads calls answered without an ad, by reason.',
      labelNames: ['reason'] as const,
    });
    this.clicks = counter({
      name: 'adline_clicks_total',
      help: 'Clicks committed, by outcome (billed, over_budget, invalid) and invalid reason ("none" when valid).',
      labelNames: ['outcome', 'reason'] as const,
    });
    this.batchSize = histogram({
      name: 'adline_batch_size',
      help: 'Rows committed per group-commit batch, by writer (impressions, clicks).',
      labelNames: ['writer'] as const,
      buckets: BATCH_BUCKETS,
    });
    this.batchCommitDuration = histogram({
      name: 'adline_batch_commit_duration_seconds',
      help: 'Time to write and commit one batch, by writer (impressions, clicks).',
      labelNames: ['writer'] as const,
      buckets: LATENCY_BUCKETS,
    });
    this.campaignIndexRebuilds = counter({
      name: 'adline_campaign_index_rebuilds_total',
      help: 'Campaign index rebuilds, by result (ok, failed).',
      labelNames: ['result'] as const,
    });
    this.campaignIndexRebuildDuration = histogram({
      name: 'adline_campaign_index_rebuild_duration_seconds',
      help: 'Time to read the servable campaigns and build the index (successful rebuilds).',
      buckets: REBUILD_BUCKETS,
    });
    this.throttled = counter({
      name: 'adline_throttled_requests_total',
      help: 'Requests refused 429 by a rate limit, by route pattern.',
      labelNames: ['route'] as const,
    });
    if (!this.enabled) return;
    const readers = this.readers;
    new Gauge({
      name: 'adline_campaign_index_campaigns',
      help: 'Campaigns the in-memory index serves now.',
      registers: [this.registry],
      collect() {
        if (readers.campaignIndexSize) this.set(readers.campaignIndexSize());
      },
    });
    new Counter({
      name: 'adline_clicks_lost_total',
      help: 'Clicks finally not written (the database did not answer through every retry).',
      registers: [this.registry],
      collect() {
        if (!readers.clicksLost) return;
        this.reset();
        this.inc(readers.clicksLost());
      },
    });
    new Gauge({
      name: 'adline_database_pool_connections',
      help: 'Connections of the database pool, by state (in_use, idle); MySQL/MariaDB only.',
      labelNames: ['state'] as const,
      registers: [this.registry],
      collect() {
        const usage = readers.databasePool?.();
        if (!usage) return;
        this.set({ state: 'in_use' }, usage.inUse);
        this.set({ state: 'idle' }, usage.idle);
      },
    });
    new Gauge({
      name: 'adline_database_pool_waiting',
      help: 'Callers waiting for a connection of the database pool; MySQL/MariaDB only.',
      registers: [this.registry],
      collect() {
        const usage = readers.databasePool?.();
        if (usage) this.set(usage.waiting);
      },
    });
  }

  /** Node's process metrics (CPU, memory, event loop lag, GC) start with the app. */
  onModuleInit(): void {
    if (this.enabled) collectDefaultMetrics({ register: this.registry });
  }

  /** Registers where a scraped figure is read from (one reader per figure). */
  readFrom<K extends keyof MetricReaders>(figure: K, reader: MetricReaders[K]): void {
    this.readers[figure] = reader;
  }

  /** For GroupCommit's `onCommit`: records one committed batch of `writer`. */
  batchObserver(writer: BatchWriter): (size: number, seconds: number) => void {
    const size = this.batchSize.labels(writer);
    const duration = this.batchCommitDuration.labels(writer);
    return (rows, seconds) => {
      size.observe(rows);
      duration.observe(seconds);
    };
  }

  /** The text exposition format Prometheus scrapes. */
  render(): Promise<string> {
    return this.registry.metrics();
  }
}
