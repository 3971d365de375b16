import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { SwaggerModule } from '@nestjs/swagger';
import fastifyCookie from '@fastify/cookie';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { DestinationStream } from 'pino';
import { FETCH_ADS_BODY_CHECK } from './ads/dto/fetch-ads-request.check';
import { AppModule } from './app.module';
import { answerClientError } from './common/client-error';
import { useCheckedJsonParser } from './common/json-body';
import { ProblemDetailsFilter, sendProblem } from './http/problem-details.filter';
import { createValidationPipe } from './common/validation';
import { cacheControlFor, SECURITY_HEADERS } from './common/security-headers';
import type { AppConfig } from './config/app-config';
import { fastifyTrustProxy } from './config/trusted-proxies';
import { AccessLogController } from './logging/access-log';
import { createLogger } from './logging/logger';
import { nestLogger } from './logging/nest-logger';
import { buildOpenApiDocument } from './openapi';

const REQUEST_ID = /^[\w.:-]{1,128}$/;

/**
 * Creates the application exactly as production runs it; used by main, tests and scripts.
 * Its log goes to stdout, or to `options.logDestination` (a test capturing a run's log).
 */
export async function createApp(
  config: AppConfig,
  options: { logDestination?: DestinationStream } = {},
): Promise<NestFastifyApplication> {
  const logger = createLogger(config, options.logDestination);
  // One access line per request (ACCESS_LOG), written whatever LOG_LEVEL says.
  const accessLog = new AccessLogController(config.accessLog ? logger : null);
  const adapter = new FastifyAdapter({
    // Fastify logs through the app's pino, and Nest too (below).
    loggerInstance: logger,
    logController: accessLog,
    bodyLimit: config.bodyLimitBytes,
    // Only a trusted proxy's X-Forwarded-For names the client (request.ip); by default none.
    trustProxy: fastifyTrustProxy(config.trustedProxies),
    // Keep a caller's request id when it is sane, so logs can be joined across services.
    genReqId: (req: { headers: Record<string, string | string[] | undefined> }) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    // Errors raised before routing (a bad %-escape, an over-long id) and by Node's HTTP
    // parser (huge or malformed headers) are problem+json like every other error. Router
    // errors skip every hook, so their headers are set here.
    frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      accessLog.logWhenSent(request, reply);
      sendProblem(
        error,
        request,
        reply.headers({
          ...SECURITY_HEADERS,
          'cache-control': 'no-store',
          'x-request-id': request.id,
        }),
      );
    },
    clientErrorHandler: answerClientError,
    // A request arriving while the server closes is answered by RequestDrain instead.
    return503OnClosing: false,
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config), adapter, {
    logger: nestLogger(logger),
    // Fastify's own JSON parser is all the API needs; no form or text bodies are accepted.
    bodyParser: false,
  });
  await app.register(fastifyCookie);
  // A conversions batch (up to 1,000 items of up to ~400 bytes) outgrows BODY_LIMIT_BYTES,
  // which is sized for fetch-ads; that one route may take more. Set before Nest adds routes.
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRoute', (route) => {
      if (route.url === CONVERSIONS_PATH && route.method === 'POST') {
        route.bodyLimit = Math.max(config.bodyLimitBytes, CONVERSIONS_BODY_LIMIT_BYTES);
      }
    });
  configureApp(app, config);
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  return app;
}

/** The conversions route and the body a full batch of it needs. */
const CONVERSIONS_PATH = '/api/conversions';
const CONVERSIONS_BODY_LIMIT_BYTES = 1024 * 1024;

/** Global pipes, filters, hooks and Swagger: the one place they are declared (docs/style.md §6). */
export function configureApp(app: NestFastifyApplication, config: AppConfig): void {
  app.useGlobalPipes(createValidationPipe([FETCH_ADS_BODY_CHECK]));
  app.useGlobalFilters(new ProblemDetailsFilter());
  // No enableShutdownHooks(): main.ts handles SIGTERM itself (graceful-shutdown.ts), with
  // a time limit and a closing line; tests and scripts close their app themselves.
  const fastify = app.getHttpAdapter().getInstance();
  // Every API body is JSON; anything else is answered 415 instead of being read as text.
  fastify.removeContentTypeParser('text/plain');
  useCheckedJsonParser(fastify);
  // Set before the handler, which may replace any of them (the dashboard's page its stricter
  // Content Security Policy, an answer its own cache-control). A callback hook, not an async
  // one: it runs on every request and need not cost a promise.
  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.headers(SECURITY_HEADERS).header('x-request-id', request.id);
    // Register, sign-in and key creation answer secrets; no API answer is for a shared cache.
    const cacheControl = cacheControlFor(request.url);
    if (cacheControl) void reply.header('cache-control', cacheControl);
    done();
  });
  SwaggerModule.setup('docs', app, () => buildOpenApiDocument(app, config), {
    jsonDocumentUrl: 'docs/openapi.json',
    yamlDocumentUrl: 'docs/openapi.yaml',
  });
}
