import { Controller, Get, Header, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { Registry } from 'prom-client';
import { ApiProblemResponses } from '@/common/api-problem-responses.decorator';
import { ProblemException } from '@/common/problem';
import { METRICS_TOKEN_SCHEME } from '@/common/openapi-conventions';
import { MetricsTokenGuard } from './metrics-token.guard';
import { MetricsService } from './metrics.service';

/** What the OpenAPI document shows of the answer. */
const METRICS_EXAMPLE = `# HELP adline_ads_served_total Ads answered by fetch-ads (each with its impression committed).
# TYPE adline_ads_served_total counter
adline_ads_served_total 42
`;

@ApiTags('operations')
@Controller('metrics')
@UseGuards(MetricsTokenGuard)
// Open, or with METRICS_TOKEN a bearer token: both alternatives are listed.
@ApiSecurity(METRICS_TOKEN_SCHEME)
@ApiSecurity({})
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  @Get()
  @Header('content-type', Registry.PROMETHEUS_CONTENT_TYPE)
  @Header('cache-control', 'no-store')
  @ApiOperation({
    summary: 'Prometheus metrics of this instance',
    description:
      'The Prometheus text format: process metrics, HTTP requests by route and status, ads served and no-fills, clicks by outcome, batch commits, the campaign index, throttled requests, the database pool. With METRICS_TOKEN set, send `Authorization: Bearer <METRICS_TOKEN>`. With METRICS_ENABLED=false it answers 404.',
  })
  @ApiOkResponse({
    description: 'The metrics, in the Prometheus text format 0.0.4.',
    content: { 'text/plain': { schema: { type: 'string', example: METRICS_EXAMPLE } } },
  })
  @ApiProblemResponses({ 401: ['unauthorized'], 404: ['not_found'] })
  scrape(): Promise<string> {
    if (!this.metrics.enabled) {
      throw ProblemException.notFound('not_found', 'Metrics are off here (METRICS_ENABLED=false).');
    }
    return this.metrics.render();
  }
}
