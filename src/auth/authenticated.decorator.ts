import {
  applyDecorators,
  createParamDecorator,
  ExecutionContext,
  SetMetadata,
  UseGuards,
} from '@nestjs/common';
import { ApiBearerAuth, ApiCookieAuth } from '@nestjs/swagger';
import { ApiProblemResponses } from '@/common/api-problem-responses.decorator';
import type { PublisherRole } from '@/publishers/entities/publisher.entity';
import type { Principal, RequestWithPrincipal } from './principal';
import { REQUIRED_ROLE, SessionGuard } from './session.guard';

export const BEARER_SCHEME = 'bearer';
export const COOKIE_SCHEME = 'session-cookie';

/**
 * A management route: needs a session (cookie or bearer token), and with `role: 'admin'`
 * an operator. Bundles the guard, the role and the Swagger security marker (docs/style.md).
 */
export function Authenticated(
  options: { role?: PublisherRole } = {},
): ClassDecorator & MethodDecorator {
  return applyDecorators(
    SetMetadata(REQUIRED_ROLE, options.role ?? 'publisher'),
    UseGuards(SessionGuard),
    ApiBearerAuth(BEARER_SCHEME),
    ApiCookieAuth(COOKIE_SCHEME),
    ApiProblemResponses({ 401: ['unauthorized'], 403: ['forbidden'] }),
  );
}

/** The principal SessionGuard established for this request. */
export const CurrentPrincipal = createParamDecorator(
  (_: unknown, context: ExecutionContext): Principal => {
    const principal = context.switchToHttp().getRequest<RequestWithPrincipal>().principal;
    if (!principal) throw new Error('CurrentPrincipal used on a route without @Authenticated()');
    return principal;
  },
);
