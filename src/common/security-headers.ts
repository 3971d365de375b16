import helmet, { type HelmetOptions } from 'helmet';
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Security headers on every answer (API, `/docs`, dashboard): helmet's defaults, nosniff,
 * frame-ancestors and X-Frame-Options against clickjacking, no referrer across origins, HSTS
 * (ignored by browsers on plain http). Helmet's default Content Security Policy fits Swagger
 * UI at `/docs` (its scripts are same-origin files, its styles inline); the dashboard's page
 * sets a stricter policy of its own, which replaces this one.
 */
export const HELMET_OPTIONS: HelmetOptions = {
  // Helmet's default `upgrade-insecure-requests` would send Swagger UI's own scripts to https
  // on a service reached over plain http (an internal host, a development port) and break
  // `/docs`; where the service is on https, HSTS already keeps browsers there.
  contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } },
};

/**
 * The headers helmet sets with HELMET_OPTIONS, worked out once at start-up by running
 * helmet's own middleware against a recording response. With these options every header is
 * fixed (no per-request nonce), so each answer gets the same object in one hook
 * (app.setup.ts) instead of @fastify/helmet building helmet's middleware chain again on every
 * request (~5% of the service's CPU per fetch-ads: BENCHMARKS.md, round two). Router errors and the raw
 * answers to requests Node's HTTP parser refused, which no Fastify hook runs for, use it too.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze(
  headersSetBy(helmet(HELMET_OPTIONS)),
);

function headersSetBy(middleware: ReturnType<typeof helmet>): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: string | number) => {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  const outcome: { failure?: Error } = {};
  middleware({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error === undefined || error === null) return;
    outcome.failure = error instanceof Error ? error : new Error('helmet refused its options');
  });
  // Helmet reports a bad option (a malformed directive) through `next`.
  if (outcome.failure) throw outcome.failure;
  return headers;
}

/** Answers under these paths may carry a secret or a person's data: no cache keeps them. */
const UNCACHEABLE = /^\/(api|health)\//;

export function cacheControlFor(url: string): string | null {
  return UNCACHEABLE.test(url) ? 'no-store' : null;
}
