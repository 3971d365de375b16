import { Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import { Redis } from 'ioredis';
import { WindowThrottlerStorage } from './window-throttler-storage';

type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/** Hits, ms left in the current window, 1 when blocked, ms left of the block. */
type HitReply = [number, number, number, number];

type RedisWithHit = Redis & {
  rateLimitHit(key: string, ttl: number, limit: number, blockDuration: number): Promise<HitReply>;
};

/**
 * `WindowThrottlerStorage`'s algorithm, step for step, on one Redis hash per key
 * (`start`, `current`, `previous`, `blocked_until`), read and written atomically.
 *
 * The clock is the Redis server's (`TIME`), not the caller's: every instance then agrees on
 * where a key's windows start and when its block ends, however far their own clocks drift
 * apart. Redis 5 and later replicate a script by its effects, so reading TIME before writing
 * is allowed. Numbers are written with %.0f because Lua would print epoch milliseconds in
 * exponent form with some formatters. The PEXPIRE lets Redis forget a key once it counts
 * nothing any more: two windows idle and no block left.
 */
const HIT_SCRIPT = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local ttl, limit, block = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local saved = redis.call('HMGET', KEYS[1], 'start', 'current', 'previous', 'blocked_until')
local start = tonumber(saved[1]) or now
local current = tonumber(saved[2]) or 0
local previous = tonumber(saved[3]) or 0
local blockedUntil = tonumber(saved[4]) or 0
local elapsed = math.floor((now - start) / ttl)
if elapsed > 0 then
  if elapsed == 1 then previous = current else previous = 0 end
  current = 0
  start = start + elapsed * ttl
end
local reply
if blockedUntil > now then
  reply = {limit + 1, start + ttl - now, 1, blockedUntil - now}
else
  local hits = math.floor(previous * (1 - (now - start) / ttl)) + current + 1
  if hits > limit then
    blockedUntil = now + math.max(block, 1)
    reply = {hits, start + ttl - now, 1, blockedUntil - now}
  else
    current = current + 1
    reply = {hits, start + ttl - now, 0, 0}
  end
end
redis.call('HSET', KEYS[1], 'start', string.format('%.0f', start), 'current', current,
  'previous', previous, 'blocked_until', string.format('%.0f', blockedUntil))
redis.call('PEXPIRE', KEYS[1], string.format('%.0f', math.max(start + 2 * ttl, blockedUntil) - now))
return reply
`;

export interface RedisThrottlerStorageOptions {
  /** Prepended to every key, so counters never collide with other data in the same Redis. */
  keyPrefix?: string;
  /** How long one hit may wait for Redis before it is counted in memory instead. */
  commandTimeoutMs?: number;
}

/**
 * Rate-limit counters shared by every instance through Redis (REDIS_URL), with the
 * semantics of `WindowThrottlerStorage`: one Lua script per hit, so one round trip and no
 * race between instances.
 *
 * Ad serving must not stop because Redis does: when Redis is unreachable, slow or failing,
 * a hit is counted in this instance's memory instead (limits then hold per instance, as
 * without Redis), and the outage is logged once. ioredis keeps reconnecting in the
 * background (also when Redis did not answer at start-up); once it has, hits count in Redis
 * again. The memory counts of the outage are not carried over.
 */
export class RedisThrottlerStorage
  implements ThrottlerStorage, OnModuleInit, OnApplicationShutdown
{
  private readonly logger = new Logger(RedisThrottlerStorage.name);
  private readonly redis: RedisWithHit;
  private readonly keyPrefix: string;
  private readonly fallback = new WindowThrottlerStorage();
  private outage = false;
  /** After a failed hit, skip Redis briefly so a hung server does not delay every request. */
  private bypassUntil = 0;

  constructor(url: string, options: RedisThrottlerStorageOptions = {}) {
    this.keyPrefix = options.keyPrefix ?? 'adline:rl:';
    // No offline queue and a short timeout: while Redis is away a hit fails at once (or
    // soon) and is counted in memory, instead of waiting for a reconnection.
    this.redis = new Redis(url, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: options.commandTimeoutMs ?? 250,
      connectTimeout: 2000,
      // After a refused connection, disconnect() waits this long for a socket that is
      // already gone (ioredis' default: 2 s) before shutdown can finish.
      disconnectTimeout: 200,
    }) as RedisWithHit;
    this.redis.defineCommand('rateLimitHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
    this.redis.on('error', (error: Error) => this.startOutage(error.message));
    this.redis.on('ready', () => this.endOutage());
  }

  /** Connects before the first request; a Redis that does not answer is not fatal. */
  async onModuleInit(): Promise<void> {
    try {
      await this.redis.connect();
    } catch (error) {
      this.startOutage((error as Error).message);
    }
  }

  onApplicationShutdown(): void {
    this.redis.disconnect();
  }

  /** For readiness: fails at once while disconnected, else within the command timeout. */
  async ping(): Promise<void> {
    await this.redis.ping();
  }

  async increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): Promise<ThrottlerStorageRecord> {
    if (this.redis.status !== 'ready' || Date.now() < this.bypassUntil) {
      if (this.redis.status !== 'ready') this.startOutage(`connection ${this.redis.status}`);
      return this.fallback.increment(key, ttl, limit, blockDuration, throttlerName);
    }
    let reply: HitReply;
    try {
      reply = await this.redis.rateLimitHit(
        `${this.keyPrefix}${throttlerName}:${key}`,
        ttl,
        limit,
        blockDuration,
      );
    } catch (error) {
      this.bypassUntil = Date.now() + 1000;
      this.startOutage((error as Error).message);
      return this.fallback.increment(key, ttl, limit, blockDuration, throttlerName);
    }
    this.endOutage();
    const [totalHits, windowLeftMs, blocked, blockLeftMs] = reply;
    return {
      totalHits,
      timeToExpire: Math.ceil(windowLeftMs / 1000),
      isBlocked: blocked === 1,
      timeToBlockExpire: Math.ceil(blockLeftMs / 1000),
    };
  }

  private startOutage(reason: string): void {
    if (this.outage) return;
    this.outage = true;
    this.logger.warn(
      `Redis does not answer for rate limits (${reason}); counting in this instance's memory until it does`,
    );
  }

  private endOutage(): void {
    if (!this.outage) return;
    this.outage = false;
    this.logger.log('Redis answers again; rate-limit counters are shared again');
  }
}
