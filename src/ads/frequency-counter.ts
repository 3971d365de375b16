import { Logger } from '@nestjs/common';
import { Redis } from 'ioredis';

/**
 * Ads served per session in a fixed window: the window starts with the session's first ad
 * and lasts the cap's minutes; the count starts again after it.
 */
export interface FrequencyCounter {
  /**
   * Adds `ads` to the session's count and answers the count before them. The caller serves
   * `cap - before` of them at most: a request over the cap adds to a count already at or
   * over it, which changes nothing until the window ends.
   */
  add(key: string, ads: number, windowMs: number): Promise<number> | number;
}

/** Sweep expired sessions at most this often: a lazy pass, not a timer. */
const SWEEP_EVERY_MS = 60_000;

/**
 * Sessions kept at most (about 150 bytes each: ~30 MB). A caller who invents a new
 * session_id per request cannot grow the map past it: once full, expired sessions are swept
 * and, if none were, the longest-known session is forgotten (its count starts again, which
 * only ever serves an ad more, never bills one).
 */
export const MAX_MEMORY_SESSIONS = 200_000;

/**
 * Counts in this instance's memory: a map of session key → count and window end, whose
 * expired entries are dropped when a request comes at least a minute after the last sweep.
 * It holds the sessions of the longest window at most (one day), and never more than
 * `maxSessions`.
 */
export class MemoryFrequencyCounter implements FrequencyCounter {
  private readonly sessions = new Map<string, { count: number; endsAt: number }>();
  private nextSweep = 0;

  constructor(
    private readonly now: () => number = Date.now,
    private readonly maxSessions = MAX_MEMORY_SESSIONS,
  ) {}

  add(key: string, ads: number, windowMs: number): number {
    const now = this.now();
    if (now >= this.nextSweep) this.sweep(now);
    const session = this.sessions.get(key);
    if (session === undefined || session.endsAt <= now) {
      if (session === undefined && this.sessions.size >= this.maxSessions) this.makeRoom(now);
      this.sessions.set(key, { count: ads, endsAt: now + windowMs });
      return 0;
    }
    const before = session.count;
    session.count += ads;
    return before;
  }

  /** Sessions counted and not yet swept (for tests). */
  get size(): number {
    return this.sessions.size;
  }

  private makeRoom(now: number): void {
    this.sweep(now);
    if (this.sessions.size < this.maxSessions) return;
    // Maps iterate in insertion order: the first key is the longest-known session.
    const oldest = this.sessions.keys().next().value;
    if (oldest !== undefined) this.sessions.delete(oldest);
  }

  private sweep(now: number): void {
    this.nextSweep = now + SWEEP_EVERY_MS;
    for (const [key, session] of this.sessions) {
      if (session.endsAt <= now) this.sessions.delete(key);
    }
  }
}

/**
 * Counts in Redis (REDIS_URL), shared by every instance: one MULTI per request — `SET key 0
 * PX window NX` starts the window (and its expiry) only for a new key, `INCRBY` adds — so one
 * round trip and no race between instances. Serving must not stop because Redis does: when
 * it is unreachable, slow or failing, this instance counts in memory instead (caps then hold
 * per instance), the outage is logged once, and Redis is tried again a second later.
 */
export class RedisFrequencyCounter implements FrequencyCounter {
  private readonly logger = new Logger(RedisFrequencyCounter.name);
  private readonly redis: Redis;
  private readonly fallback = new MemoryFrequencyCounter();
  private outage = false;
  private bypassUntil = 0;

  constructor(
    url: string,
    private readonly keyPrefix = 'adline:fcap:',
  ) {
    // As the rate limiter's: no offline queue and a short timeout, so a request never waits
    // for a reconnection.
    this.redis = new Redis(url, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: 250,
      connectTimeout: 2000,
      disconnectTimeout: 200,
    });
    this.redis.on('error', (error: Error) => this.startOutage(error.message));
    this.redis.on('ready', () => this.endOutage());
  }

  async connect(): Promise<void> {
    try {
      await this.redis.connect();
    } catch (error) {
      this.startOutage((error as Error).message);
    }
  }

  disconnect(): void {
    this.redis.disconnect();
  }

  async add(key: string, ads: number, windowMs: number): Promise<number> {
    if (this.redis.status !== 'ready' || Date.now() < this.bypassUntil) {
      if (this.redis.status !== 'ready') this.startOutage(`connection ${this.redis.status}`);
      return this.fallback.add(key, ads, windowMs);
    }
    const redisKey = `${this.keyPrefix}${key}`;
    try {
      const replies = await this.redis
        .multi()
        .set(redisKey, 0, 'PX', windowMs, 'NX')
        .incrby(redisKey, ads)
        .exec();
      const [error, after] = replies?.[1] ?? [new Error('transaction aborted'), null];
      if (error) throw error;
      this.endOutage();
      return Number(after) - ads;
    } catch (error) {
      this.bypassUntil = Date.now() + 1000;
      this.startOutage((error as Error).message);
      return this.fallback.add(key, ads, windowMs);
    }
  }

  private startOutage(reason: string): void {
    if (this.outage) return;
    this.outage = true;
    this.logger.warn(
      `Redis does not answer for frequency caps (${reason}); counting in this instance's memory until it does`,
    );
  }

  private endOutage(): void {
    if (!this.outage) return;
    this.outage = false;
    this.logger.log('Redis answers again; frequency caps are shared again');
  }
}
