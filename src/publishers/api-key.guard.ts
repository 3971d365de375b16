import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ProblemException } from '@/common/problem';
import { ApiKeyResolver } from './api-key-resolver.service';
import { KeyUsageTracker } from './key-usage-tracker.service';
import type { KeyCredential } from './publisher-credentials';

export const API_KEY_HEADER = 'service-api-key';

export type RequestWithCaller = FastifyRequest & { caller?: KeyCredential };

/** Checks `service-api-key`; every failure is a 404 with its own code (docs/design.md, the publisher contract). */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly resolver: ApiKeyResolver,
    private readonly usage: KeyUsageTracker,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<RequestWithCaller>();
    const header = request.headers[API_KEY_HEADER];
    const secret = (Array.isArray(header) ? header[0] : header)?.trim();
    if (!secret) {
      throw ProblemException.notFound(
        'missing_api_key',
        `Send the AI model's API key in the ${API_KEY_HEADER} header.`,
      );
    }
    const credential = await this.resolver.resolve(secret);
    if (!credential || credential.keyStatus !== 'active') {
      throw ProblemException.notFound(
        'invalid_api_key',
        'The API key is incorrect or revoked; verify it or create a new one.',
      );
    }
    if (credential.modelStatus !== 'active' || credential.publisherStatus !== 'active') {
      throw ProblemException.notFound('model_inactive', inactiveDetail(credential));
    }
    // In memory only: last_used_at is written about once a minute, not per request.
    this.usage.recordUse(credential.keyId);
    request.caller = credential;
    return true;
  }
}

/**
 * What the caller can do about `model_inactive`: a publisher that deactivated its own model
 * can reactivate it; a model an operator deactivated, or a suspended publisher, needs support.
 */
function inactiveDetail(credential: KeyCredential): string {
  if (credential.publisherStatus === 'active' && credential.modelDeactivatedBy === 'publisher') {
    return 'The AI model of this key was deactivated by its publisher; reactivate it in the dashboard to serve ads again.';
  }
  return 'The AI model of this key is not active; contact support.';
}
