import { Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { MetricsService } from './metrics.service';

/** The route label of a request no route matched: one series, whatever paths are probed. */
const UNMATCHED = 'unmatched';

/**
 * Counts and times every answer by route pattern (`/api/campaign_click`, never the URL with
 * its query, so the series stay few) and status. One counter increment and one histogram
 * observation per request; Fastify measures the time itself (`reply.elapsedTime`).
 */
@Injectable()
export class HttpMetricsHook implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly metrics: MetricsService,
  ) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter?.getInstance<FastifyInstance>();
    // METRICS_ENABLED=false: no hook at all, so a request pays nothing for metrics.
    if (!fastify || !this.metrics.enabled) return;
    const { httpRequests, httpDuration } = this.metrics;
    fastify.addHook('onResponse', (request, reply, done) => {
      const labels = {
        method: request.method,
        route: request.routeOptions.url ?? UNMATCHED,
        status: String(reply.statusCode),
      };
      httpRequests.inc(labels);
      httpDuration.observe(labels, reply.elapsedTime / 1000);
      done();
    });
  }
}
