import { CanActivate, ExecutionContext, HttpStatus, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { createHash, timingSafeEqual } from 'node:crypto';
import { ProblemException } from '@/common/problem';
import { AppConfig } from '@/config/app-config';

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

/**
 * With METRICS_TOKEN set, `/metrics` answers only `Authorization: Bearer <METRICS_TOKEN>`;
 * without it the endpoint is open (keep it off the public network then).
 */
@Injectable()
export class MetricsTokenGuard implements CanActivate {
  private readonly expected: Buffer | null;

  constructor(config: AppConfig) {
    // Metrics off: the endpoint answers 404 to everyone, token or not.
    const open = config.metricsToken === null || !config.metricsEnabled;
    this.expected = open ? null : digest(config.metricsToken);
  }

  canActivate(context: ExecutionContext): boolean {
    if (this.expected === null) return true;
    const header = context.switchToHttp().getRequest<FastifyRequest>().headers.authorization;
    const given = /^Bearer (.+)$/i.exec(header ?? '')?.[1];
    // Digests have one length, so the comparison takes the same time whatever was sent.
    if (given !== undefined && timingSafeEqual(digest(given), this.expected)) return true;
    throw new ProblemException(
      HttpStatus.UNAUTHORIZED,
      'unauthorized',
      'Send the metrics token: Authorization: Bearer <METRICS_TOKEN>.',
      undefined,
      { 'www-authenticate': 'Bearer' },
    );
  }
}
