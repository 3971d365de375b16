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
    // Assets are looked up when asked for, never listed at start-up: a dashboard built
    // after the service started (or rebuilt under new names) is served without a restart.
    // @fastify/static refuses paths that leave `root`; unknown names and dotfiles answer
    // the app's 404 problem.
    void fastify.register(fastifyStatic, {
      root: this.files.assets,
      prefix: '/dashboard/assets/',
      wildcard: true,
      index: false,
      dotfiles: 'ignore',
      decorateReply: false,
      // Before `npm run build` the folder does not exist yet; the page says how to build it.
      suppressWarning: true,
      // Asset names carry a content hash, so a browser may keep them for good.
      immutable: true,
      maxAge: '365d',
      setHeaders: (reply) => {
        void reply.header('x-content-type-options', 'nosniff');
      },
    });
  }
}
