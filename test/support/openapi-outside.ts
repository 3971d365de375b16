/*
 * Answers the e2e suites see that openapi.json rightly does not describe, each with its
 * reason. Everything else must match the document; an answer the document gets wrong is
 * fixed in the controller's decorators, never added here.
 */

export interface Outside {
  reason: string;
  /** The answer must still be a problem (application/problem+json, ProblemDetailsDto). */
  problem: boolean;
}

interface Rule extends Outside {
  matches(method: string, path: string, status: number): boolean;
}

const under = (prefix: string) => (path: string) =>
  path === prefix || path.startsWith(`${prefix}/`);

const RULES: Rule[] = [
  {
    reason: 'Swagger UI and the served copy of the document: they describe the API, not part of it',
    problem: false,
    matches: (_method, path) => under('/docs')(path),
  },
  {
    reason: 'the operator dashboard (HTML and its assets), left out of the API document on purpose',
    problem: false,
    matches: (_method, path) => under('/dashboard')(path),
  },
  {
    // Fastify reads the URL and the body before it finds no route, so a malformed one is
    // refused (400, 413, 415) rather than answered 404 not_found.
    reason:
      'a method and path no operation names (the fuzz suite and the unknown-route tests ask on purpose): a 4xx problem',
    problem: true,
    matches: (_method, _path, status) => status >= 400 && status < 500,
  },
];

/** Why this answer is outside the document, or undefined when the document must describe it. */
export function outsideTheDocument(
  method: string,
  path: string,
  status: number,
): Outside | undefined {
  const rule = RULES.find((candidate) => candidate.matches(method, path, status));
  return rule && { reason: rule.reason, problem: rule.problem };
}
