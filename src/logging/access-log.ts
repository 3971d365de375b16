import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Logger } from 'pino';

/** The fields of one access line; nothing else of the request is ever logged here. */
export interface AccessLine {
  requestId: string;
  method: string;
  /** The route pattern (`/api/models/:id`), never the raw URL with its ids and query. */
  route: string | null;
  status: number;
  durationMs: number;
  /** The calling AI model, once ApiKeyGuard has resolved its key. */
  modelId?: string;
}

/**
 * What the API-key guard (publishers) leaves on the request, as far as the log needs it;
 * described here so that logging, below every feature module, imports none of them.
 */
type RequestWithModel = FastifyRequest & { caller?: { modelId?: string } };

export function accessLine(request: FastifyRequest, reply: FastifyReply): AccessLine {
  const line: AccessLine = {
    requestId: request.id,
    method: request.method,
    route: request.routeOptions.url ?? null,
    status: reply.statusCode,
    durationMs: Math.round(reply.elapsedTime * 100) / 100,
  };
  const modelId = (request as RequestWithModel).caller?.modelId;
  if (modelId) line.modelId = modelId;
  return line;
}

/**
 * Fastify's request logging, replaced: instead of two lines per request ("incoming request",
 * "request completed" with the raw URL), one access line once the answer is sent. Fastify
 * calls `requestCompleted` for every answer, router errors and 404s included.
 */
export class AccessLogController extends LogController {
  private readonly access: Logger | null;

  /**
   * `logger`: the app's; null when ACCESS_LOG=false. Access lines are `info` whatever
   * LOG_LEVEL says. They hold only the fields above, so they skip redaction, which would
   * more than double the cost of the line on the hot path (about 4 µs of 7).
   */
  constructor(logger: Logger | null) {
    super({ requestIdLogLabel: 'requestId' });
    this.access = logger?.child({}, { level: 'info', redact: [] }) ?? null;
  }

  override incomingRequest(): void {
    // The access line, written on completion, says everything this one would.
  }

  override routeNotFound(): void {
    // The 404's access line says it; Fastify's own line would carry the raw URL.
  }

  /** Router errors (Fastify's `frameworkErrors`) skip `requestCompleted`: logged once sent. */
  logWhenSent(request: FastifyRequest, reply: FastifyReply): void {
    reply.raw.once('finish', () => this.requestCompleted(null, request, reply));
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (!this.access) return;
    const line = accessLine(request, reply);
    if (error) {
      this.access.info({ ...line, error: error.message }, 'request failed while answering');
    } else {
      this.access.info(line, 'request completed');
    }
  }
}
