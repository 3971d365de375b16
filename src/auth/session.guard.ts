import { CanActivate, ExecutionContext, HttpStatus, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ProblemException } from '@/common/problem';
import { AppConfig } from '@/config/app-config';
import { REQUIRED_ROLE } from '@/common/authenticated.decorator';
import type { PublisherRole, RequestWithPrincipal } from '@/common/principal';
import { PublishersService } from '@/publishers/publishers.service';
import { SESSION_COOKIE } from './session-cookie';
import { SessionsService } from './sessions.service';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Authenticates management requests by bearer token or session cookie, refuses suspended
 * accounts, enforces the route's role, and refuses cookie-authenticated changes whose
 * Origin is foreign (cross-site request forgery).
 *
 * Global (APP_GUARD), acting only on routes marked `@Authenticated()`: the marker is plain
 * metadata in common, so the modules whose controllers need a session do not import this
 * module, which itself needs publishers' accounts (docs/architecture.md).
 */
@Injectable()
export class SessionGuard implements CanActivate {
  constructor(
    private readonly sessions: SessionsService,
    private readonly publishers: PublishersService,
    private readonly reflector: Reflector,
    private readonly config: AppConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const required = this.reflector.getAllAndOverride<PublisherRole | undefined>(REQUIRED_ROLE, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (!required) return true;
    const request = context.switchToHttp().getRequest<RequestWithPrincipal>();
    const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    const cookie = request.cookies?.[SESSION_COOKIE];
    const token = bearer ?? cookie;
    const unauthorized = () =>
      new ProblemException(HttpStatus.UNAUTHORIZED, 'unauthorized', 'Sign in to use this route.');
    if (!token) throw unauthorized();
    const via = bearer ? 'bearer' : 'cookie';
    if (via === 'cookie' && !SAFE_METHODS.has(request.method) && this.isForeign(request)) {
      throw new ProblemException(
        HttpStatus.FORBIDDEN,
        'forbidden',
        'Cross-site requests cannot change anything; use the dashboard or a bearer token.',
      );
    }
    const session = await this.sessions.resolve(token);
    if (!session) throw unauthorized();
    const publisher = await this.publishers.findPublisher(session.publisherId);
    if (!publisher) throw unauthorized();
    if (publisher.status !== 'active') {
      throw new ProblemException(HttpStatus.FORBIDDEN, 'forbidden', 'This account is suspended.');
    }
    if (required === 'admin' && publisher.role !== 'admin') {
      throw new ProblemException(
        HttpStatus.FORBIDDEN,
        'forbidden',
        'Only operators can use this route.',
      );
    }
    request.principal = {
      publisherId: publisher.id,
      role: publisher.role,
      sessionId: session.id,
      via,
    };
    return true;
  }

  /** A browser names the page's origin on every unsafe request; ours is BASE_URL's. */
  private isForeign(request: RequestWithPrincipal): boolean {
    const origin = request.headers.origin ?? refererOrigin(request.headers.referer);
    if (!origin) return false;
    const own = new URL(this.config.baseUrl).origin;
    const host = request.headers.host ? `${request.protocol}://${request.headers.host}` : own;
    return origin !== own && origin !== host;
  }
}

function refererOrigin(referer: string | undefined): string | undefined {
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return 'null';
  }
}
