import {
  BeforeApplicationShutdown,
  Injectable,
  Logger,
  OnModuleDestroy,
  OnModuleInit,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** Longest shutdown waits for the requests in flight when it started. */
const DRAIN_LIMIT_MS = 10_000;
const POLL_MS = 10;

/**
 * Graceful shutdown, step one. Nest's shutdown (SIGTERM) first runs the modules' destroy
 * hooks: from then readiness answers 503, so a balancer stops sending. Before the HTTP
 * server closes, the requests that were in flight finish here, while the server still
 * takes what arrives meanwhile. Then Nest closes the server (which waits for those), then
 * the writers commit what they hold, then the database closes.
 */
@Injectable()
export class RequestDrain implements OnModuleInit, OnModuleDestroy, BeforeApplicationShutdown {
  private readonly logger = new Logger(RequestDrain.name);
  private readonly inFlight = new Set<FastifyRequest>();
  private shuttingDown = false;

  constructor(private readonly adapterHost: HttpAdapterHost) {}

  get draining(): boolean {
    return this.shuttingDown;
  }

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter?.getInstance<FastifyInstance>();
    if (!fastify) return;
    fastify.addHook('onRequest', (request, _reply, next) => {
      this.inFlight.add(request);
      next();
    });
    fastify.addHook('onResponse', (request, _reply, next) => {
      this.inFlight.delete(request);
      next();
    });
    fastify.addHook('onRequestAbort', (request, next) => {
      this.inFlight.delete(request);
      next();
    });
  }

  onModuleDestroy(): void {
    this.shuttingDown = true;
  }

  async beforeApplicationShutdown(): Promise<void> {
    const started = [...this.inFlight];
    const deadline = Date.now() + DRAIN_LIMIT_MS;
    while (started.some((request) => this.inFlight.has(request))) {
      if (Date.now() > deadline) {
        this.logger.warn(`shutting down with requests still in flight after ${DRAIN_LIMIT_MS} ms`);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }
}
