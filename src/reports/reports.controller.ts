import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Authenticated } from '@/common/authenticated.decorator';
import { ApiProblemResponses } from '@/common/api-problem-responses.decorator';
import { ModelReportDto, PublisherReportDto, ReportQueryDto } from './dto/reports.dto';
import { modelReportCsv, publisherReportCsv } from './reports-csv';
import { ApiReportResponse, replyWithReport } from './reports-response';
import { ReportsService } from './reports.service';

/** The figure columns of the CSV examples, up to the first reason columns. */
const CSV_FIGURES =
  'impressions,clicks,invalid_clicks,ctr,spend,publisher_earnings,platform_revenue,invalid_click_rate,unbilled_bad_signature,unbilled_unknown_impression,…\r\n';

@ApiTags('admin')
@Controller('api/admin/reports')
@Authenticated({ role: 'admin' })
export class ReportsController {
  constructor(private readonly reports: ReportsService) {}

  @Get('publishers')
  @ApiOperation({
    summary: 'Platform report per publisher (operators)',
    description:
      "Per publisher with any activity in the UTC days `from`–`to`: impressions, billed and unbilled clicks, CTR, spend, the publishers' earnings and the platform's revenue, from the same roll-ups as the ledger, with the share of unbilled clicks (`invalid_click_rate`) and their reasons. Forged follows name no real publisher and count in campaign reports only. `format=csv` downloads it as CSV.",
  })
  @ApiReportResponse(
    PublisherReportDto,
    `publisher_id,publisher_name,publisher_email,${CSV_FIGURES}`,
  )
  @ApiProblemResponses({ 400: ['validation_failed'] })
  async getPublisherReport(
    @Query() query: ReportQueryDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<PublisherReportDto | string> {
    return replyWithReport(
      reply,
      query.format,
      await this.reports.publisherReport(query),
      publisherReportCsv,
    );
  }

  @Get('models')
  @ApiOperation({
    summary: 'Platform report per AI model (operators)',
    description:
      'Per AI model with any activity in the UTC days `from`–`to`: its publisher, impressions, billed and unbilled clicks, CTR, the share of unbilled clicks (`invalid_click_rate`) and their reasons, spend and its split, so a model sending invalid traffic stands out. Forged follows name no real model and count in campaign reports only. `format=csv` downloads it as CSV.',
  })
  @ApiReportResponse(ModelReportDto, `publisher_id,model_id,model_name,${CSV_FIGURES}`)
  @ApiProblemResponses({ 400: ['validation_failed'] })
  async getModelReport(
    @Query() query: ReportQueryDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ModelReportDto | string> {
    return replyWithReport(
      reply,
      query.format,
      await this.reports.modelReport(query),
      modelReportCsv,
    );
  }
}
