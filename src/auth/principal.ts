import type { FastifyRequest } from 'fastify';
import type { PublisherRole } from '@/publishers/entities/publisher.entity';

/** Who a management request is from, as SessionGuard established it. */
export interface Principal {
  publisherId: string;
  role: PublisherRole;
  sessionId: string;
  /** Cookie sessions are the dashboard's; bearer tokens are programmatic clients'. */
  via: 'cookie' | 'bearer';
}

export type RequestWithPrincipal = FastifyRequest & { principal?: Principal };

export const SESSION_COOKIE = 'adline_session';
