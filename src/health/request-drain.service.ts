import {
  BeforeApplicationShutdown,
  HttpStatus,
  Injectable,
  Logger,
  OnModuleDestroy,
  OnModuleInit,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ProblemException } from '@/common/problem';
import { sendProblem } from '@/http/problem-details.filter';
import { AppConfig } from '@/config/app-config';

const POLL_MS = 10;

/**
 * Graceful shutdown, step one. Nest's shutdown (SIGTERM) first runs the modules' destroy
 * hooks: from then readiness answers 503, so a balancer stops sending. Before the HTTP
 * server closes, the requests that were in flight finish here, while the server still
 * takes what arrives meanwhile. Then Nest closes the server (which waits for those), then
 * the writers commit what they hold, then the database closes. A request that still comes
 * (on a kept-alive connection) once the server is closing is answered `503 shutting_down`.
 * The drain takes at most half of SHUTDOWN_TIMEOUT_SECONDS, leaving the rest to commit and
 * close: a request still unfinished then (a client stalled mid-body) has its connection cut.
 */
@Injectable()
export class RequestDrain implements OnModuleInit, OnModuleDestroy, BeforeApplicationShutdown {
  private readonly logger = new Logger(RequestDrain.name);
  private readonly inFlight = new Set<FastifyRequest>();
  private shuttingDown = false;
  /** The HTTP server is closing: the drain is over, new requests are refused. */
  private serverClosing = false;
  private readonly limitMs: number;
  /** Requests answered since shutdown began, and those cut off at the drain's limit. */
  readonly shutdownStats = { answered: 0, cutOff: 0 };

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    config: AppConfig,
  ) {
    this.limitMs = config.shutdownTimeoutMs / 2;
  }

  get draining(): boolean {
    return this.shuttingDown;
  }

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter?.getInstance<FastifyInstance>();
    if (!fastify) return;
    // Instead of Fastify's own closing 503 (`return503OnClosing`, off in app.setup.ts), which
    // is plain JSON without a code or this app's headers; app.setup.ts's header hook has run.
    fastify.addHook('preClose', (done) => {
      this.serverClosing = true;
      done();
    });
    fastify.addHook('onRequest', (request, reply, next) => {
      if (this.serverClosing) return this.refuse(request, reply);
      this.inFlight.add(request);
      next();
    });
    fastify.addHook('onResponse', (request, _reply, next) => {
      this.inFlight.delete(request);
      if (this.shuttingDown) this.shutdownStats.answered += 1;
      next();
    });
    fastify.addHook('onRequestAbort', (request, next) => {
      this.inFlight.delete(request);
      next();
    });
  }

  /** Sent, so the rest of the request's hooks and its handler never run. */
  private refuse(request: FastifyRequest, reply: FastifyReply): void {
    const problem = new ProblemException(
      HttpStatus.SERVICE_UNAVAILABLE,
      'shutting_down',
      'This instance is shutting down; send the request to another one.',
      undefined,
      { 'retry-after': '5', connection: 'close' },
    );
    sendProblem(problem, request, reply);
  }

  /** Readiness answers 503 from now on; requests are still served as usual. */
  announceShutdown(): void {
    this.shuttingDown = true;
  }

  onModuleDestroy(): void {
    this.announceShutdown();
  }

  async beforeApplicationShutdown(): Promise<void> {
    const started = [...this.inFlight];
    const deadline = Date.now() + this.limitMs;
    while (started.some((request) => this.inFlight.has(request))) {
      if (Date.now() > deadline) return this.cutOff();
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  /** The HTTP server would wait for these forever; the batches and the pools must not. */
  private cutOff(): void {
    const unfinished = [...this.inFlight];
    this.logger.warn(
      `cutting off ${unfinished.length} requests still in flight after ${this.limitMs} ms of shutdown`,
    );
    for (const request of unfinished) {
      this.inFlight.delete(request);
      request.raw.socket?.destroy();
    }
    this.shutdownStats.cutOff += unfinished.length;
  }
}
