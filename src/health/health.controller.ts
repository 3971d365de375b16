import { Controller, Get, HttpStatus } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { ApiProblemResponses } from '@/common/api-problem-responses.decorator';
import { ProblemException } from '@/common/problem';
import { AppConfig } from '@/config/app-config';
import { withDeadline } from '@/database/database-errors';
import { RequestDrain } from './request-drain.service';

class HealthDto {
  @ApiProperty({ example: 'ok' }) status: string;
}

/** A readiness probe must answer before the prober gives up (Kubernetes waits 1 s). */
const READY_DEADLINE_MS = 1000;

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly drain: RequestDrain,
  ) {}

  @Get('live')
  @ApiOperation({ summary: 'Liveness: the process answers' })
  @ApiOkResponse({ type: HealthDto })
  live(): HealthDto {
    return { status: 'ok' };
  }

  @Get('ready')
  @ApiOperation({
    summary: 'Readiness: the database answers and the instance is not shutting down',
    description: `Answers within about ${READY_DEADLINE_MS} ms whatever the database does.`,
  })
  @ApiOkResponse({ type: HealthDto })
  @ApiProblemResponses({ 503: ['database_unavailable', 'shutting_down'] })
  async ready(): Promise<HealthDto> {
    // From the moment shutdown starts, so a balancer stops sending while requests drain.
    if (this.drain.draining) {
      throw new ProblemException(
        HttpStatus.SERVICE_UNAVAILABLE,
        'shutting_down',
        'This instance is shutting down; send requests to another one.',
      );
    }
    const deadline = Math.min(this.config.databaseTimeoutMs, READY_DEADLINE_MS);
    try {
      await withDeadline(this.dataSource.query('SELECT 1'), deadline, 'readiness check');
    } catch {
      throw new ProblemException(
        HttpStatus.SERVICE_UNAVAILABLE,
        'database_unavailable',
        'The database does not answer.',
        undefined,
        { 'retry-after': '5' },
      );
    }
    return { status: 'ok' };
  }
}
