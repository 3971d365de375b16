import { ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  ThrottlerGuard,
  ThrottlerLimitDetail,
  type ThrottlerModuleOptions,
  type ThrottlerRequest,
  type ThrottlerStorage,
} from '@nestjs/throttler';
import type { FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import { AppConfig } from '@/config/app-config';
import { MetricsService } from '@/metrics/metrics.service';
import { keyedHasher, rememberingHasher } from '@/common/keyed-hash';
import { ProblemException } from '@/common/problem';

/**
 * Hides who a rate-limit counter counts (a client IP, an email): the same keyed hash on every
 * instance, so counters shared through Redis still meet.
 */
export const rateLimitKeyHasher = (config: AppConfig): ((value: string) => string) =>
  keyedHasher(config.sessionSecret, 'rate-limit');

/** Who a limit counts: the API key of the call (fetch-ads) or the client's IP (clicks). */
export type RatePolicy = 'api-key' | 'client-ip';
const RATE_POLICY = 'adline:rate-policy';
export const RateLimitBy = (policy: RatePolicy) => SetMetadata(RATE_POLICY, policy);

/**
 * `@nestjs/throttler` with our two policies. Limits come from validated config, and a
 * rejection is a 429 problem with a standard `Retry-After` header.
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  private readonly hashTracker: (tracker: string) => string;

  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() storage: ThrottlerStorage,
    reflector: Reflector,
    private readonly config: AppConfig,
    private readonly metrics: MetricsService,
  ) {
    super(options, storage, reflector);
    // Trackers are an API key's SHA-256 or a client IP, never a secret in clear.
    this.hashTracker = rememberingHasher(rateLimitKeyHasher(config));
  }

  override canActivate(context: ExecutionContext): Promise<boolean> {
    if (!this.config.rateLimitsEnabled) return Promise.resolve(true);
    return super.canActivate(context);
  }

  /** Counters are storage (Redis keys): they hold a keyed hash, never a client IP in clear. */
  protected override generateKey(context: ExecutionContext, tracker: string, name: string): string {
    const route = `${context.getClass().name}-${context.getHandler().name}-${name}`;
    return `${route}-${this.hashTracker(tracker)}`;
  }

  protected override handleRequest(request: ThrottlerRequest): Promise<boolean> {
    const policy = this.reflector.getAllAndOverride<RatePolicy | undefined>(RATE_POLICY, [
      request.context.getHandler(),
      request.context.getClass(),
    ]);
    if (policy === 'api-key') {
      return super.handleRequest({
        ...request,
        limit: this.config.rateLimitPerMinute,
        getTracker: (req: Record<string, unknown>) => {
          // The throttler types requests loosely; on this app they are Fastify requests.
          const request = req as unknown as FastifyRequest;
          // A publisher's key, or an advertiser's (conversions: `Authorization: Bearer`).
          const key = request.headers['service-api-key'] ?? request.headers.authorization;
          // Hash so that no secret is kept as a map key; a call without a key counts by IP.
          return typeof key === 'string' && key !== ''
            ? `key:${createHash('sha256').update(key).digest('hex')}`
            : `ip:${request.ip}`;
        },
      });
    }
    return super.handleRequest({ ...request, limit: this.config.clickRateLimitPerMinute });
  }

  protected override throwThrottlingException(
    context: ExecutionContext,
    detail: ThrottlerLimitDetail,
  ): Promise<void> {
    const { routeOptions } = context.switchToHttp().getRequest<FastifyRequest>();
    this.metrics.throttled.inc({ route: routeOptions.url ?? 'unmatched' });
    const retryAfter = Math.max(1, detail.timeToBlockExpire);
    throw new ProblemException(
      429,
      'rate_limited',
      `Rate limit of ${detail.limit} requests per minute exceeded; retry after ${retryAfter} s.`,
      undefined,
      { 'retry-after': String(retryAfter) },
    );
  }
}
