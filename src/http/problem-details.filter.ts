import { ArgumentsHost, Catch, ExceptionFilter, HttpException } from '@nestjs/common';
import { ThrottlerException } from '@nestjs/throttler';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable } from '@/database/database-errors';
import {
  PROBLEM_CONTENT_TYPE,
  ProblemBody,
  ProblemCode,
  PROBLEM_TITLES,
  ProblemException,
  problemType,
} from '@/common/problem';

/**
 * Fastify's own errors (raised before Nest sees the request) and what they mean to a client;
 * `status` overrides Fastify's own when ours is clearer.
 */
const FASTIFY_CODES: Record<string, { code: ProblemCode; detail: string; status?: number }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: {
    code: 'payload_too_large',
    detail: 'The request body is larger than this service accepts.',
  },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: 'unsupported_media_type',
    detail: 'Send the body as application/json.',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    code: 'validation_failed',
    detail: 'The request body is empty; send a JSON object.',
  },
  FST_ERR_CTP_INVALID_JSON_BODY: {
    code: 'malformed_json',
    detail: 'The body is not valid JSON, or it holds a __proto__ or constructor.prototype key.',
  },
  FST_ERR_BAD_URL: {
    code: 'bad_url',
    detail: 'The URL path holds invalid percent-encoding (each %XX must encode UTF-8).',
  },
  // No resource has an id this long, so the path names nothing (Fastify would answer 414).
  FST_ERR_MAX_PARAM_LENGTH: {
    code: 'not_found',
    detail: 'No such resource: a path segment is longer than 100 characters.',
    status: 404,
  },
};

const STATUS_CODES: Record<number, ProblemCode> = {
  400: 'validation_failed',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
};

function body(status: number, code: ProblemCode, detail: string): ProblemBody {
  return { type: problemType(code), title: PROBLEM_TITLES[code], status, detail, code };
}

/** Fastify's own error (Nest passes it on as the `cause` of an HttpException). */
function fastifyProblem(error: unknown): ProblemBody | null {
  const { code, statusCode } = (error ?? {}) as { code?: unknown; statusCode?: unknown };
  if (typeof code !== 'string' || !code.startsWith('FST_')) return null;
  const status = typeof statusCode === 'number' ? statusCode : 400;
  const known = FASTIFY_CODES[code];
  if (known) return body(known.status ?? status, known.code, known.detail);
  // Any other client error Fastify raises (e.g. a bad Content-Length) is still a problem.
  return status >= 400 && status < 500
    ? body(status, 'bad_request', 'The HTTP request is malformed.')
    : null;
}

/** Maps anything thrown to a problem-details body; unknown errors become an opaque 500. */
export function toProblem(error: unknown): ProblemBody {
  if (error instanceof ProblemException) return error.toBody();
  if (error instanceof ThrottlerException) {
    return body(429, 'rate_limited', 'Too many requests; slow down and retry later.');
  }
  if (isDatabaseUnavailable(error)) {
    return body(503, 'database_unavailable', 'The database did not answer in time; retry later.');
  }
  const fromFastify =
    fastifyProblem(error) ?? fastifyProblem((error as { cause?: unknown })?.cause);
  if (fromFastify) return fromFastify;
  if (error instanceof HttpException) {
    const status = error.getStatus();
    const code = STATUS_CODES[status] ?? (status < 500 ? 'validation_failed' : 'internal');
    return body(status, code, status < 500 ? error.message : 'An internal error occurred.');
  }
  return body(500, 'internal', 'An internal error occurred; retry with exponential backoff.');
}

/**
 * Writes a problem to a Fastify reply; shared by the Nest filter and Fastify's error handler.
 * Faults are logged with `request.log`: the app's pino, bound to the request id.
 */
export function sendProblem(error: unknown, request: FastifyRequest, reply: FastifyReply): void {
  const problem = toProblem(error);
  if (error instanceof ProblemException) {
    for (const [name, value] of Object.entries(error.headers)) void reply.header(name, value);
  }
  if (problem.code === 'database_unavailable') {
    // An outage answers many requests alike: one line each, no stack; the cause is in it.
    request.log.warn(
      { method: request.method, route: request.routeOptions.url ?? null },
      `database unavailable: ${String(error)}`,
    );
    if (!reply.hasHeader('retry-after')) void reply.header('retry-after', '5');
  } else if (problem.status >= 500 && problem.code !== 'shutting_down') {
    request.log.error(
      { method: request.method, route: request.routeOptions.url ?? null, err: error },
      'request failed',
    );
  }
  if (problem.status === 429 && !reply.hasHeader('retry-after')) reply.header('retry-after', '60');
  void reply.status(problem.status).header('content-type', PROBLEM_CONTENT_TYPE).send(problem);
}

/** The one exception filter of the app (docs/style.md §8). */
@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    sendProblem(error, http.getRequest<FastifyRequest>(), http.getResponse<FastifyReply>());
  }
}
