import type { FastifyHelmetOptions } from '@fastify/helmet';

/**
 * Security headers on every answer (API, `/docs`, dashboard) through @fastify/helmet's
 * defaults: nosniff, frame-ancestors and X-Frame-Options against clickjacking, no referrer
 * across origins, HSTS (ignored by browsers on plain http). Helmet's default Content Security
 * Policy fits Swagger UI at `/docs` (its scripts are same-origin files, its styles inline);
 * the dashboard's page sets a stricter policy of its own, which replaces this one.
 */
export const SECURITY_HEADERS: FastifyHelmetOptions = {
  global: true,
};

/** Answers under these paths may carry a secret or a person's data: no cache keeps them. */
const UNCACHEABLE = /^\/(api|health)\//;

export function cacheControlFor(url: string): string | null {
  return UNCACHEABLE.test(url) ? 'no-store' : null;
}
