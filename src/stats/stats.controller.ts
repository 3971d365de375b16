import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Authenticated, CurrentPrincipal } from '@/common/authenticated.decorator';
import type { Principal } from '@/common/principal';
import { ApiProblemResponses } from '@/common/api-problem-responses.decorator';
import { StatsDto, StatsQueryDto } from './dto/stats.dto';
import { ApiReportResponse, replyWithReport } from '@/reports/reports-response';
import { statsCsv } from './stats-csv';
import { StatsService } from './stats.service';

/** The CSV example: the header and a first line. */
const CSV_EXAMPLE =
  'date,model_id,impressions,clicks,ctr,earnings,test_impressions,test_clicks,requests,fills,fill_rate,no_fill_no_match,…\r\n' +
  '2026-11-01,019a8a3e-5b1c-7cc1-9d0e-3f2a1b4c5d6e,1200,30,0.025,7.35,40,3,1500,1200,0.8,250,…\r\n';

@ApiTags('stats')
@Controller('api/stats')
@Authenticated()
export class StatsController {
  constructor(private readonly stats: StatsService) {}

  @Get()
  @ApiOperation({
    summary: 'Your usage statistics per UTC day and model',
    description:
      'Impressions, valid (billed) clicks, CTR and earnings, from roll-ups kept up to date as events are written, with totals. Invalid clicks (bots, duplicates, forged links) are not counted. Test keys’ traffic is never billed and shows apart, in `test_impressions` and `test_clicks`. `format=csv` downloads it as CSV: a line per day and model, a `no_fill_<reason>` column per reason, the totals last.',
  })
  @ApiReportResponse(StatsDto, CSV_EXAMPLE)
  @ApiProblemResponses({ 400: ['validation_failed'], 404: ['model_not_found'] })
  async getUsageStats(
    @CurrentPrincipal() principal: Principal,
    @Query() query: StatsQueryDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<StatsDto | string> {
    return replyWithReport(
      reply,
      query.format,
      await this.stats.forPublisher(principal.publisherId, query),
      statsCsv,
    );
  }
}
