import type { FastifyRequest } from 'fastify';

/** Publisher accounts come in two roles: publishers, and operators (`admin`). */
export const PUBLISHER_ROLES = ['publisher', 'admin'] as const;
export type PublisherRole = (typeof PUBLISHER_ROLES)[number];

/**
 * Who a management request is from, as the session guard (AuthModule) established it.
 * Here rather than in auth so that every module's controllers can name their caller
 * without importing the module that signs people in (docs/architecture.md).
 */
export interface Principal {
  publisherId: string;
  role: PublisherRole;
  sessionId: string;
  /** Cookie sessions are the dashboard's; bearer tokens are programmatic clients'. */
  via: 'cookie' | 'bearer';
}

export type RequestWithPrincipal = FastifyRequest & { principal?: Principal };
