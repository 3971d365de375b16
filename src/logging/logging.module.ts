import type { DynamicModule } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import type { Logger } from 'pino';

/**
 * Nest's own lines (`new Logger(...)` in services) go through nestjs-pino into `logger`,
 * the pino instance Fastify logs with. `useExisting` keeps that instance; `forRoutes: []`
 * mounts no per-request middleware, which would cost the hot path a middleware run per
 * request: lines about one request are written with Fastify's `request.log`, which already
 * carries its request id. nestjs-pino keeps the first logger of the process: one app each.
 */
export function nestLoggingModule(logger: Logger): DynamicModule {
  return LoggerModule.forRoot({ pinoHttp: { logger }, useExisting: true, forRoutes: [] });
}
