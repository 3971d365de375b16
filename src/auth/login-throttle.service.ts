import { HttpStatus, Injectable } from '@nestjs/common';
import { InjectThrottlerStorage, type ThrottlerStorage } from '@nestjs/throttler';
import { ProblemException } from '@/common/problem';
import { rateLimitKeyHasher } from '@/http/rate-limit.guard';
import { AppConfig } from '@/config/app-config';

const MINUTE_MS = 60_000;

/**
 * Limits sign-in attempts per client IP and per email (LOGIN_RATE_LIMIT_PER_MINUTE each),
 * with the same storage as the throttler, so password guessing is slow from any angle; with
 * REDIS_URL that storage is shared, so spreading guesses over instances gains nothing.
 */
@Injectable()
export class LoginThrottle {
  constructor(
    @InjectThrottlerStorage() private readonly storage: ThrottlerStorage,
    private readonly config: AppConfig,
  ) {}

  async check(ip: string, email: string): Promise<void> {
    const limit = this.config.loginRateLimitPerMinute;
    // Counters are storage (Redis keys): keyed hashes, never an IP or email in clear.
    const hash = rateLimitKeyHasher(this.config);
    for (const key of [`login-ip:${hash(ip)}`, `login-email:${hash(email)}`]) {
      const record = await this.storage.increment(key, MINUTE_MS, limit, MINUTE_MS, 'login');
      if (record.isBlocked) {
        const retryAfter = Math.max(1, record.timeToBlockExpire);
        throw new ProblemException(
          HttpStatus.TOO_MANY_REQUESTS,
          'rate_limited',
          `Too many sign-in attempts; retry after ${retryAfter} s.`,
          undefined,
          { 'retry-after': String(retryAfter) },
        );
      }
    }
  }
}
