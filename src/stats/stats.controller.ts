import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Authenticated, CurrentPrincipal } from '@/common/authenticated.decorator';
import type { Principal } from '@/common/principal';
import { ApiProblemResponses } from '@/common/api-problem-responses.decorator';
import { StatsOverviewDto } from './dto/stats-overview.dto';
import { ModelRangeQueryDto, StatsDto, StatsQueryDto } from './dto/stats.dto';
import { UnbilledClicksDto } from './dto/unbilled-clicks.dto';
import { ApiReportResponse, replyWithReport } from '@/reports/reports-response';
import { statsCsv, unbilledClicksCsv } from './stats-csv';
import { StatsService } from './stats.service';

/** The CSV example: the header and a first line. */
const CSV_EXAMPLE =
  'date,model_id,impressions,clicks,ctr,rpm,earnings,test_impressions,test_clicks,viewed_impressions,view_rate,requests,fills,fill_rate,no_fill_no_match,…\r\n' +
  '2026-11-01,019a8a3e-5b1c-7cc1-9d0e-3f2a1b4c5d6e,1200,30,0.025,6.125,7.35,40,3,900,0.75,1500,1200,0.8,250,…\r\n';

const UNBILLED_CSV_EXAMPLE =
  'date,model_id,reason,clicks\r\n' +
  '2026-11-01,019a8a3e-5b1c-7cc1-9d0e-3f2a1b4c5d6e,bot,3\r\n' +
  'total,,bot,3\r\n';

@ApiTags('stats')
@Controller('api/stats')
@Authenticated()
export class StatsController {
  constructor(private readonly stats: StatsService) {}

  @Get()
  @ApiOperation({
    summary: 'Your usage statistics per UTC day and model, model, API key or campaign',
    description:
      'Impressions, valid (billed) clicks, CTR, RPM (earnings per 1,000 impressions) and earnings, from roll-ups kept up to date as events are written, with totals. Invalid clicks (bots, duplicates, forged links) are not counted: `GET /api/stats/unbilled-clicks` lists them. Test keys’ traffic is never billed and shows apart, in `test_impressions` and `test_clicks`. `viewed_impressions` counts the live impressions whose ad was seen on screen (its `view_url` called), and `view_rate` their share of `impressions`. `group_by` chooses the rows: `day` (the default: a row per day and model), `model`, `key` or `campaign` (most earnings first). Figures per key come from the raw impressions and clicks, which are kept `RETENTION_DAYS` days (30 by default): a range reaching further back counts only the kept days there, while `totals` always cover the whole range. `format=csv`, or `Accept: text/csv` without `format`, downloads it as CSV: a line per row with the grouping’s columns (per day and model, a `no_fill_<reason>` column per reason), the totals last, UTC dates and amounts in units.',
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
      (stats) => statsCsv(stats, query.group_by),
    );
  }

  @Get('overview')
  @ApiOperation({
    summary: 'Your earnings today, yesterday, this month and last month',
    description:
      'Impressions, valid clicks, earnings, CTR and RPM of today, yesterday, this month and last month (UTC), each beside the period before it and with the change in earnings, from the daily roll-ups. Test keys’ traffic is left out.',
  })
  @ApiOkResponse({ type: StatsOverviewDto })
  @ApiProblemResponses({})
  getStatsOverview(@CurrentPrincipal() principal: Principal): Promise<StatsOverviewDto> {
    return this.stats.overview(principal.publisherId);
  }

  @Get('unbilled-clicks')
  @ApiOperation({
    summary: 'Clicks on your ads that were not paid, and why',
    description:
      'Per UTC day, model and reason, the clicks on your ads that were recorded but not paid (a script or bot, a second click on one ad, too fast, too many from one network, the advertiser’s budget spent, …), with totals per reason and, in `reasons`, what every reason means and what to do about it. Test keys’ clicks are not among them (`test_clicks` in `GET /api/stats`). At most 366 days. `format=csv`, or `Accept: text/csv` without `format`, downloads it as CSV: a line per day, model and reason, then a `total` line per reason.',
  })
  @ApiReportResponse(UnbilledClicksDto, UNBILLED_CSV_EXAMPLE)
  @ApiProblemResponses({ 400: ['validation_failed'], 404: ['model_not_found'] })
  async getUnbilledClicks(
    @CurrentPrincipal() principal: Principal,
    @Query() query: ModelRangeQueryDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<UnbilledClicksDto | string> {
    return replyWithReport(
      reply,
      query.format,
      await this.stats.unbilledClicks(principal.publisherId, query),
      unbilledClicksCsv,
    );
  }
}
