import { Controller, Get, HttpStatus, ServiceUnavailableException } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { HealthCheckService, type HealthCheckResult } from '@nestjs/terminus';
import { ApiProblemResponses } from '@/common/api-problem-responses.decorator';
import { ProblemException, type ProblemBody } from '@/common/problem';
import { READY_DEADLINE_MS, ReadinessIndicators } from './readiness-indicators';

class HealthDto {
  @ApiProperty({ enum: ['ok', 'degraded'], example: 'ok' }) status: string;
  @ApiProperty({
    description: 'The checks that passed, by name',
    example: { database: { status: 'up' } },
  })
  info: Record<string, unknown>;
  @ApiProperty({ description: 'The checks that failed, by name', example: {} })
  error: Record<string, unknown>;
  @ApiProperty({
    description: 'Every check, by name',
    example: { database: { status: 'up' } },
  })
  details: Record<string, unknown>;
}

/**
 * A failed readiness check: problem+json (its `status` the HTTP status, as RFC 9457 says)
 * plus Terminus's `info`, `error` and `details`, which name the checks that failed.
 */
class NotReady extends ProblemException {
  constructor(
    code: 'shutting_down' | 'database_unavailable' | 'not_ready',
    detail: string,
    private readonly result: HealthCheckResult,
  ) {
    super(HttpStatus.SERVICE_UNAVAILABLE, code, detail, undefined, { 'retry-after': '5' });
  }

  override toBody(): ProblemBody {
    const { info, error, details } = this.result;
    const body: ProblemBody & Omit<HealthCheckResult, 'status'> = {
      ...super.toBody(),
      info,
      error,
      details,
    };
    return body;
  }
}

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly readiness: ReadinessIndicators,
  ) {}

  @Get('live')
  @ApiOperation({
    summary: 'Liveness: the process answers',
    description:
      'Checks nothing else, so an orchestrator restarts the process only when it hangs; readiness is `/health/ready`.',
  })
  @ApiOkResponse({ type: HealthDto })
  @ApiProblemResponses({ 431: ['header_too_large'] })
  live(): Promise<HealthCheckResult> {
    return this.health.check([]);
  }

  @Get('ready')
  @ApiOperation({
    summary:
      'Readiness: not shutting down, the database answers, the campaign index is loaded (and Redis, with REDIS_URL)',
    description: `Answers within about ${READY_DEADLINE_MS} ms whatever the database does. A Redis that does not answer makes the answer \`degraded\` (still 200: the instance serves without it). A 503 names the failed checks in \`error\`.`,
  })
  @ApiOkResponse({ type: HealthDto })
  @ApiProblemResponses({
    431: ['header_too_large'],
    503: ['shutting_down', 'database_unavailable', 'not_ready'],
  })
  async ready(): Promise<HealthCheckResult> {
    try {
      return await this.health.check(this.readiness.all());
    } catch (error) {
      if (!(error instanceof ServiceUnavailableException)) throw error;
      throw notReady(error.getResponse() as HealthCheckResult);
    }
  }
}

/** The first failed check names the problem: shutdown first, as it is final. */
function notReady(result: HealthCheckResult): NotReady {
  const failed = result.error ?? {};
  if ('shutdown' in failed) {
    return new NotReady(
      'shutting_down',
      'This instance is shutting down; send requests to another one.',
      result,
    );
  }
  if ('database' in failed) {
    return new NotReady('database_unavailable', 'The database does not answer.', result);
  }
  return new NotReady('not_ready', `Not ready: ${Object.keys(failed).join(', ')} failed.`, result);
}
