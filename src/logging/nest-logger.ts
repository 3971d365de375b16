import type { LoggerService } from '@nestjs/common';
import { Logger, PinoLogger, type Params } from 'nestjs-pino';
import type { Logger as Pino } from 'pino';

/**
 * Nest's own lines (`new Logger(...)` in services, Nest's start-up and errors) through
 * nestjs-pino into `pino`, the instance Fastify logs with. Built before the app, and given
 * to NestFactory, so even a start that fails (the database unreachable) logs JSON lines.
 * No per-request middleware: lines about one request use Fastify's `request.log`, which
 * already carries its request id. nestjs-pino keeps the first pino of the process.
 */
export function nestLogger(pino: Pino): LoggerService {
  const params: Params = { pinoHttp: { logger: pino }, useExisting: true };
  return new Logger(new PinoLogger(params), params);
}
