import { HttpStatus, Injectable } from '@nestjs/common';
import { InjectThrottlerStorage, type ThrottlerStorage } from '@nestjs/throttler';
import { ProblemException } from '@/common/problem';
import { rateLimitKeyHasher } from '@/http/rate-limit.guard';
import { AppConfig } from '@/config/app-config';

const MINUTE_MS = 60_000;

/**
 * What is being attempted: each has its own counters, so asking for reset mails does not use
 * up sign-in attempts. `account-mail` covers the routes that send mail to an address.
 */
export type ThrottledAction = 'login' | 'password-change' | 'account-mail';

const WHAT: Record<ThrottledAction, string> = {
  login: 'sign-in attempts',
  'password-change': 'password change attempts',
  'account-mail': 'account mail requests',
};

/**
 * Limits sign-in attempts per client IP and per email (LOGIN_RATE_LIMIT_PER_MINUTE each),
 * with the same storage as the throttler, so password guessing is slow from any angle; with
 * REDIS_URL that storage is shared, so spreading guesses over instances gains nothing.
 * Password changes and account mails (reset, verification) are limited the same way.
 */
@Injectable()
export class LoginThrottle {
  constructor(
    @InjectThrottlerStorage() private readonly storage: ThrottlerStorage,
    private readonly config: AppConfig,
  ) {}

  async check(ip: string, email: string, action: ThrottledAction = 'login'): Promise<void> {
    const limit = this.config.loginRateLimitPerMinute;
    // Counters are storage (Redis keys): keyed hashes, never an IP or email in clear.
    const hash = rateLimitKeyHasher(this.config);
    for (const key of [`${action}-ip:${hash(ip)}`, `${action}-email:${hash(email)}`]) {
      const record = await this.storage.increment(key, MINUTE_MS, limit, MINUTE_MS, action);
      if (record.isBlocked) {
        const retryAfter = Math.max(1, record.timeToBlockExpire);
        throw new ProblemException(
          HttpStatus.TOO_MANY_REQUESTS,
          'rate_limited',
          `Too many ${WHAT[action]}; retry after ${retryAfter} s.`,
          undefined,
          { 'retry-after': String(retryAfter) },
        );
      }
    }
  }
}
