import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import {
  PROBLEM_CONTENT_TYPE,
  ProblemBody,
  ProblemCode,
  PROBLEM_TITLES,
  problemType,
} from './problem';
import { SECURITY_HEADERS } from './security-headers';

function problemFor(errorCode: string | undefined): ProblemBody {
  const [status, code, detail]: [number, ProblemCode, string] =
    errorCode === 'HPE_HEADER_OVERFLOW'
      ? [431, 'header_too_large', 'The request line and headers are larger than 16 KiB.']
      : errorCode === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'request_timeout', 'The request took too long to arrive.']
        : [
            400,
            'bad_request',
            'The HTTP request is malformed (e.g. a forbidden byte in a header).',
          ];
  return { type: problemType(code), title: PROBLEM_TITLES[code], status, detail, code };
}

/**
 * Fastify's `clientErrorHandler`: Node's HTTP parser rejected the request before Fastify
 * saw it (a header too large, a forbidden byte, a malformed request line), so no route,
 * hook or filter runs (nor helmet: its headers are written from SECURITY_HEADERS).
 * Answers a minimal HTTP/1.1 problem+json response, never to be cached, and closes.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  // A reset connection has no one left to answer (https://nodejs.org/api/http.html#event-clienterror).
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const problem = problemFor(error.code);
  const json = JSON.stringify(problem);
  const head = [
    `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status]}`,
    `content-type: ${PROBLEM_CONTENT_TYPE}`,
    `content-length: ${Buffer.byteLength(json)}`,
    `x-request-id: ${randomUUID()}`,
    'cache-control: no-store',
    ...Object.entries(SECURITY_HEADERS).map(([name, value]) => `${name}: ${value}`),
    'connection: close',
  ];
  if (socket.writable) socket.end(`${head.join('\r\n')}\r\n\r\n${json}`);
  else socket.destroy();
}
