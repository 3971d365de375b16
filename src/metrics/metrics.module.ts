import { Global, Module } from '@nestjs/common';
import { HttpMetricsHook } from './http-metrics.hook';
import { MetricsController } from './metrics.controller';
import { MetricsTokenGuard } from './metrics-token.guard';
import { MetricsService } from './metrics.service';

/**
 * `GET /metrics`. Global, so that the modules where things happen inject MetricsService and
 * count there (or register a reader); this module imports none of them.
 */
@Global()
@Module({
  controllers: [MetricsController],
  providers: [MetricsService, HttpMetricsHook, MetricsTokenGuard],
  exports: [MetricsService],
})
export class MetricsModule {}
