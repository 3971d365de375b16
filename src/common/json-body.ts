import type { FastifyInstance } from 'fastify';
import { FieldError, ProblemException } from './problem';

/** Deepest nesting of arrays and objects a JSON body may have; real bodies use three or four. */
export const MAX_JSON_DEPTH = 32;

// A lone UTF-16 surrogate (`"\ud800"`) is not a character: UTF-8 cannot store it, so the
// database would keep U+FFFD instead, and some libraries (`encodeURI`) throw on it.
const LONE_SURROGATE = /\p{Cs}/u;
const LONE_SURROGATES = /\p{Cs}/gu;

/**
 * Checks a parsed body in one iterative walk (so the check itself cannot overflow the
 * stack): nesting at most `MAX_JSON_DEPTH` deep, every key and string well-formed Unicode.
 * Fastify's parser (secure-json-parse) has no depth limit, and a deep body would overflow
 * the stack later, in class-transformer or class-validator, as a 500. Checking after the
 * parse is cheap: the body is at most `BODY_LIMIT_BYTES`, and `JSON.parse` is not recursive.
 */
export function jsonBodyProblem(body: unknown): ProblemException | null {
  const pending: { value: unknown; path: string; depth: number }[] = [
    { value: body, path: '', depth: 0 },
  ];
  const errors: FieldError[] = [];
  while (pending.length > 0 && errors.length < 10) {
    const { value, path, depth } = pending.pop()!;
    if (typeof value === 'string') {
      if (LONE_SURROGATE.test(value)) errors.push(notUnicode(path));
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_JSON_DEPTH) {
      return ProblemException.badRequest(
        'validation_failed',
        `The JSON body is nested more than ${MAX_JSON_DEPTH} levels deep.`,
        [{ field: fieldName(path), message: `nesting is limited to ${MAX_JSON_DEPTH} levels` }],
      );
    }
    for (const [key, item] of Object.entries(value)) {
      const itemPath = path ? `${path}.${key}` : key;
      if (LONE_SURROGATE.test(key)) errors.push(notUnicode(itemPath));
      pending.push({ value: item, path: itemPath, depth: depth + 1 });
    }
  }
  return errors.length > 0 ? ProblemException.validation(errors) : null;
}

function notUnicode(path: string): FieldError {
  const field = fieldName(path);
  return {
    field,
    message: `${field} must be valid Unicode text (it holds a lone UTF-16 surrogate)`,
  };
}

/** A key may be kilobytes long and hold the bad text itself: the answer names it shortened. */
function fieldName(path: string): string {
  const short = path.length > 100 ? `${path.slice(0, 100)}…` : path || '(body)';
  return short.replace(LONE_SURROGATES, '\uFFFD');
}

/**
 * Replaces Fastify's JSON parser with the same parser (prototype poisoning still refused)
 * followed by `jsonBodyProblem`, so a bad body is a 400 before any route code runs.
 */
export function useCheckedJsonParser(fastify: FastifyInstance): void {
  const parse = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser(
    'application/json',
    { parseAs: 'string' },
    (request, raw: string, done) => {
      // Fastify's own parser answers through `done`; it returns nothing worth awaiting.
      void parse(request, raw, (error: Error | null, body?: unknown) => {
        if (error) return done(error, undefined);
        const problem = jsonBodyProblem(body);
        return problem ? done(problem, undefined) : done(null, body);
      });
    },
  );
}
