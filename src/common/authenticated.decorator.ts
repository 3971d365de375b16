import {
  applyDecorators,
  createParamDecorator,
  ExecutionContext,
  SetMetadata,
} from '@nestjs/common';
import { ApiBearerAuth, ApiCookieAuth } from '@nestjs/swagger';
import { ApiProblemResponses } from './api-problem-responses.decorator';
import type { Principal, PublisherRole, RequestWithPrincipal } from './principal';

/** Metadata the global session guard reads: a route without it needs no session. */
export const REQUIRED_ROLE = 'adline:required-role';

export const BEARER_SCHEME = 'bearer';
export const COOKIE_SCHEME = 'session-cookie';

/**
 * A management route: needs a session (cookie or bearer token), and with `role: 'admin'`
 * an operator. Marks the route for AuthModule's global session guard and states the
 * Swagger security and the 401/403 answers once, here (docs/architecture.md). Only metadata, so
 * that controllers of every module can use it without importing AuthModule.
 */
export function Authenticated(
  options: { role?: PublisherRole } = {},
): ClassDecorator & MethodDecorator {
  return applyDecorators(
    SetMetadata(REQUIRED_ROLE, options.role ?? 'publisher'),
    ApiBearerAuth(BEARER_SCHEME),
    ApiCookieAuth(COOKIE_SCHEME),
    ApiProblemResponses({ 401: ['unauthorized'], 403: ['forbidden'] }),
  );
}

/** The principal the session guard established for this request. */
export const CurrentPrincipal = createParamDecorator(
  (_: unknown, context: ExecutionContext): Principal => {
    const principal = context.switchToHttp().getRequest<RequestWithPrincipal>().principal;
    if (!principal) throw new Error('CurrentPrincipal used on a route without @Authenticated()');
    return principal;
  },
);
