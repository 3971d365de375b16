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
  // Helmet's default `upgrade-insecure-requests` would send Swagger UI's own scripts to https
  // on a service reached over plain http (an internal host, a development port) and break
  // `/docs`; where the service is on https, HSTS already keeps browsers there.
  contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } },
};

/**
 * The headers helmet sets with SECURITY_HEADERS, written out by hand for the
 * answers no Fastify hook runs for, so helmet cannot add them: router errors
 * (`frameworkErrors`) and the raw answers to requests Node's HTTP parser refused.
 * test/e2e/bad-input.e2e-spec.ts checks them against what helmet sends on other answers.
 */
export const FIXED_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'self';base-uri 'self';font-src 'self' https: data:;form-action 'self';frame-ancestors 'self';img-src 'self' data:;object-src 'none';script-src 'self';script-src-attr 'none';style-src 'self' https: 'unsafe-inline'",
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'SAMEORIGIN',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};

/** Answers under these paths may carry a secret or a person's data: no cache keeps them. */
const UNCACHEABLE = /^\/(api|health)\//;

export function cacheControlFor(url: string): string | null {
  return UNCACHEABLE.test(url) ? 'no-store' : null;
}
