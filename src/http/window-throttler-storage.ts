import type { ThrottlerStorage } from '@nestjs/throttler';

type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

interface Counter {
  /** Start of the current window, epoch ms. */
  windowStart: number;
  current: number;
  previous: number;
  blockedUntil: number;
}

/**
 * Rate-limit counters in O(1) time and memory per key: a sliding window approximated by two
 * fixed windows (the previous window's count, weighted by how much of it still overlaps the
 * last `ttl`, plus the current window's count).
 *
 * `@nestjs/throttler`'s default storage keeps one expiry time per hit and filters that list
 * on every request: with a limit of thousands per minute (one IP following many links, a
 * busy key) each request then walks and copies thousands of numbers. This one does a few
 * arithmetic operations, and one interval (not a timer per hit) forgets idle keys.
 * Once over the limit a key is blocked for `blockDuration`, as with the default storage.
 */
export class WindowThrottlerStorage implements ThrottlerStorage {
  private readonly counters = new Map<string, Counter>();
  private sweeper: NodeJS.Timeout | null = null;
  private longestTtl = 0;

  constructor(private readonly now: () => number = Date.now) {}

  increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): Promise<ThrottlerStorageRecord> {
    const now = this.now();
    const id = `${throttlerName}\u0000${key}`;
    let counter = this.counters.get(id);
    if (!counter) {
      counter = { windowStart: now, current: 0, previous: 0, blockedUntil: 0 };
      this.counters.set(id, counter);
      this.sweepEvery(ttl);
    }
    const elapsedWindows = Math.floor((now - counter.windowStart) / ttl);
    if (elapsedWindows > 0) {
      counter.previous = elapsedWindows === 1 ? counter.current : 0;
      counter.current = 0;
      counter.windowStart += elapsedWindows * ttl;
    }
    const timeToExpire = Math.ceil((counter.windowStart + ttl - now) / 1000);
    if (counter.blockedUntil > now) {
      return Promise.resolve({
        totalHits: limit + 1,
        timeToExpire,
        isBlocked: true,
        timeToBlockExpire: Math.ceil((counter.blockedUntil - now) / 1000),
      });
    }
    const overlap = 1 - (now - counter.windowStart) / ttl;
    const hits = Math.floor(counter.previous * overlap) + counter.current + 1;
    if (hits > limit) {
      counter.blockedUntil = now + Math.max(blockDuration, 1);
      return Promise.resolve({
        totalHits: hits,
        timeToExpire,
        isBlocked: true,
        timeToBlockExpire: Math.ceil(Math.max(blockDuration, 1) / 1000),
      });
    }
    counter.current++;
    return Promise.resolve({
      totalHits: hits,
      timeToExpire,
      isBlocked: false,
      timeToBlockExpire: 0,
    });
  }

  /** Keys idle for two windows count nothing any more; one unref'd interval drops them. */
  private sweepEvery(ttl: number): void {
    if (this.sweeper && ttl <= this.longestTtl) return;
    this.longestTtl = Math.max(this.longestTtl, ttl);
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = setInterval(() => this.sweep(), this.longestTtl);
    this.sweeper.unref();
  }

  private sweep(): void {
    const now = this.now();
    for (const [id, counter] of this.counters) {
      if (counter.windowStart + 2 * this.longestTtl <= now && counter.blockedUntil <= now) {
        this.counters.delete(id);
      }
    }
  }
}
