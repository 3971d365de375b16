import { Injectable } from '@nestjs/common';
import {
  type HealthIndicatorFunction,
  HealthIndicatorService,
  TypeOrmHealthIndicator,
} from '@nestjs/terminus';
import { InjectThrottlerStorage, type ThrottlerStorage } from '@nestjs/throttler';
import { CampaignIndexService } from '@/campaign-index/campaign-index.service';
import { RedisThrottlerStorage } from '@/http/redis-throttler-storage';
import { AppConfig } from '@/config/app-config';
import { RequestDrain } from './request-drain.service';

/** A readiness probe must answer before the prober gives up (Kubernetes waits 1 s). */
export const READY_DEADLINE_MS = 1000;

/** The checks `/health/ready` runs, each a Terminus indicator named by its key. */
@Injectable()
export class ReadinessIndicators {
  private readonly redis: RedisThrottlerStorage | null;

  constructor(
    private readonly indicators: HealthIndicatorService,
    private readonly typeOrm: TypeOrmHealthIndicator,
    private readonly campaignIndex: CampaignIndexService,
    private readonly drain: RequestDrain,
    private readonly config: AppConfig,
    @InjectThrottlerStorage() storage: ThrottlerStorage,
  ) {
    // With REDIS_URL the rate-limit counters live in Redis: their connection is the probe.
    this.redis = storage instanceof RedisThrottlerStorage ? storage : null;
  }

  /** Indicators in the order a failure is reported: the first one down names the problem. */
  all(): HealthIndicatorFunction[] {
    return [
      () => this.notShuttingDown(),
      () => this.database(),
      () => this.campaignIndexLoaded(),
      ...(this.redis ? [() => this.redisAnswers(this.redis!)] : []),
    ];
  }

  /** Down from the moment shutdown starts, so a balancer stops sending while requests drain. */
  notShuttingDown() {
    const check = this.indicators.check('shutdown');
    return this.drain.draining ? check.down('shutting down') : check.up();
  }

  database() {
    return this.typeOrm
      .pingCheck('database')
      .withTimeout(Math.min(this.config.databaseTimeoutMs, READY_DEADLINE_MS));
  }

  campaignIndexLoaded() {
    const check = this.indicators.check('campaignIndex');
    const index = this.campaignIndex;
    return index.loaded ? check.up({ campaigns: index.current.size }) : check.down('not built yet');
  }

  /**
   * Degraded, never down: without Redis each instance limits rates by itself and learns of
   * other instances' changes late, but it still serves; taking every instance out of the
   * balancer for a Redis outage would stop serving altogether.
   */
  async redisAnswers(redis: RedisThrottlerStorage) {
    const check = this.indicators.check('redis');
    const started = performance.now();
    try {
      await redis.ping();
      return check.up({ responseTime: Math.round(performance.now() - started) });
    } catch (error) {
      return check.degraded({ message: (error as Error).message });
    }
  }
}
