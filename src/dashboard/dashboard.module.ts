import { Module, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { DashboardController } from './dashboard.controller';
import { DashboardFiles } from './dashboard-files';
import { DashboardPage } from './dashboard-page.service';

/** The publisher dashboard (`/dashboard`): a static single-page app on the management API. */
@Module({
  controllers: [DashboardController],
  providers: [DashboardFiles, DashboardPage],
})
export class DashboardModule implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly files: DashboardFiles,
    private readonly page: DashboardPage,
  ) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    // Nest drops a route's trailing slash, and Fastify tells `/dashboard/` from `/dashboard`.
    fastify.get('/dashboard/', (request, reply) => this.page.send(request, reply));
    // Before `npm run build` there are no assets; the page says how to build them.
    if (!this.files.built) return;
    // Asset names carry a content hash, so a browser may keep them for good.
    void fastify.register(fastifyStatic, {
      root: this.files.assets,
      prefix: '/dashboard/assets/',
      decorateReply: false,
      immutable: true,
      maxAge: '365d',
      setHeaders: (reply) => {
        void reply.header('x-content-type-options', 'nosniff');
      },
    });
  }
}
