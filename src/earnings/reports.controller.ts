import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Authenticated } from '@/auth/authenticated.decorator';
import { ApiProblemResponses } from '@/common/api-problem-responses.decorator';
import { PublisherReportDto, ReportQueryDto } from './dto/reports.dto';
import { publisherReportCsv } from './reports-csv';
import { ApiReportResponse, replyWithReport } from './reports-response';
import { ReportsService } from './reports.service';

@ApiTags('admin')
@Controller('api/admin/reports')
@Authenticated({ role: 'admin' })
export class ReportsController {
  constructor(private readonly reports: ReportsService) {}

  @Get('publishers')
  @ApiOperation({
    summary: 'Platform report per publisher (operators)',
    description:
      "Per publisher with any activity in the UTC days `from`–`to`: impressions, billed and unbilled clicks, CTR, spend, the publishers' earnings and the platform's revenue, from the same roll-ups as the ledger. `format=csv` downloads it as CSV.",
  })
  @ApiReportResponse(
    PublisherReportDto,
    'publisher_id,publisher_name,publisher_email,impressions,clicks,invalid_clicks,ctr,spend,publisher_earnings,platform_revenue\r\n',
  )
  @ApiProblemResponses({ 400: ['validation_failed'], 401: ['unauthorized'], 403: ['forbidden'] })
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
}
