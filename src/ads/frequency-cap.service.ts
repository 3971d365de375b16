import { Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { keyedHasher } from '@/common/keyed-hash';
import { AppConfig } from '@/config/app-config';
import type { KeyCredential } from '@/publishers/publisher-credentials';
import {
  type FrequencyCounter,
  MemoryFrequencyCounter,
  RedisFrequencyCounter,
} from './frequency-counter';

const MINUTE_MS = 60_000;

/**
 * A model's frequency cap: at most `max_ads` ads per `session_id` in `per_minutes` (a
 * window that starts with the session's first ad). Counted per model and session in Redis
 * when REDIS_URL is set, else in this instance's memory; never in the database. The
 * session id is opaque and only its keyed hash (with the model's id) is kept, so the
 * counters name no conversation. A request without `session_id`, or of a model without a
 * cap, is not counted and never capped.
 */
@Injectable()
export class FrequencyCapService implements OnModuleInit, OnApplicationShutdown {
  private readonly counter: FrequencyCounter;
  private readonly redis: RedisFrequencyCounter | null;
  private readonly hash: (value: string) => string;

  constructor(config: AppConfig) {
    this.hash = keyedHasher(config.sessionSecret, 'frequency-cap-session');
    this.redis = config.redisUrl ? new RedisFrequencyCounter(config.redisUrl) : null;
    this.counter = this.redis ?? new MemoryFrequencyCounter();
  }

  /** Connects before the first request; a Redis that does not answer is not fatal. */
  async onModuleInit(): Promise<void> {
    await this.redis?.connect();
  }

  onApplicationShutdown(): void {
    this.redis?.disconnect();
  }

  /**
   * How many of the `ads` found the session may be shown (0: it is at its cap), counting
   * them as served; all of them when no cap applies.
   */
  async allowance(
    caller: Pick<KeyCredential, 'modelId' | 'controls'>,
    sessionId: string | undefined,
    ads: number,
  ): Promise<number> {
    const cap = caller.controls.frequencyCap;
    if (cap === null || sessionId === undefined) return ads;
    const key = this.hash(`${caller.modelId}\n${sessionId}`);
    const before = await this.counter.add(key, ads, cap.perMinutes * MINUTE_MS);
    return Math.max(0, Math.min(ads, cap.maxAds - before));
  }
}
