import { Body, Controller, Get, Param, Patch, Post, Query, Res } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Authenticated, CurrentPrincipal } from '@/common/authenticated.decorator';
import type { Principal } from '@/common/principal';
import { ApiProblemResponses } from '@/common/api-problem-responses.decorator';
import { CampaignStatsDto, ReportQueryDto } from '@/reports/dto/reports.dto';
import { campaignStatsCsv } from '@/reports/reports-csv';
import { ApiReportResponse, replyWithReport } from '@/reports/reports-response';
import { CampaignManagementService } from './campaign-management.service';
import { CampaignAuditPageDto } from '@/campaigns/dto/campaign-audit.dto';
import {
  CampaignListQueryDto,
  CreateCampaignDto,
  UpdateCampaignDto,
} from '@/campaigns/dto/campaign-input.dto';
import { CampaignDetailDto, CampaignDto, CampaignPageDto } from '@/campaigns/dto/campaign.dto';
import { PageQueryDto } from '@/common/dto/page-query.dto';

@ApiTags('admin')
@Controller('api/admin/campaigns')
@Authenticated({ role: 'admin' })
export class CampaignsController {
  constructor(private readonly campaigns: CampaignManagementService) {}

  @Get()
  @ApiOperation({
    summary: 'List campaigns (operators)',
    description:
      'Newest first, `per_page` (at most 100) at a time; filter by `status`, `advertiser_id` and `keyword`.',
  })
  @ApiOkResponse({ type: CampaignPageDto })
  @ApiProblemResponses({ 400: ['validation_failed'] })
  listCampaigns(@Query() query: CampaignListQueryDto): Promise<CampaignPageDto> {
    return this.campaigns.listCampaigns(query);
  }

  @Post()
  @ApiOperation({
    summary: 'Create a campaign (operators)',
    description:
      'Served from the response on (unless created `paused` or scheduled later), on this instance at once and on the others within seconds.',
  })
  @ApiCreatedResponse({ type: CampaignDto })
  @ApiProblemResponses({ 400: ['validation_failed'] })
  createCampaign(
    @Body() body: CreateCampaignDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<CampaignDto> {
    return this.campaigns.createCampaign(body, principal.publisherId);
  }

  @Get(':id')
  @ApiParam({ name: 'id', description: 'Id of the campaign.' })
  @ApiOperation({
    summary: 'Read a campaign (operators)',
    description:
      'Its ad, targeting, budgets, schedule and status, with what it has spent, and its conversion pixel URLs (`pixel`).',
  })
  @ApiOkResponse({ type: CampaignDetailDto })
  @ApiProblemResponses({ 404: ['campaign_not_found'] })
  getCampaign(@Param('id') id: string): Promise<CampaignDetailDto> {
    return this.campaigns.getCampaign(id);
  }

  @Patch(':id')
  @ApiParam({ name: 'id', description: 'Id of the campaign.' })
  @ApiOperation({
    summary: 'Change a campaign: targeting, budgets, schedule, pause, resume, archive (operators)',
    description:
      'Only the fields sent change; `null` clears `image_url`, a budget or a schedule bound. `keyword_translations` sent replaces the whole map (`{}` clears it); `keywords` changed without it keeps the translations of the keywords that remain. Status moves `active ⇄ paused → archived`; an archived campaign refuses every change (409). The change is served from the response on, and audited.',
  })
  @ApiOkResponse({ type: CampaignDto })
  @ApiProblemResponses({
    400: ['validation_failed'],
    404: ['campaign_not_found'],
    409: ['campaign_archived'],
  })
  updateCampaign(
    @Param('id') id: string,
    @Body() body: UpdateCampaignDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<CampaignDto> {
    return this.campaigns.updateCampaign(id, body, principal.publisherId);
  }

  @Get(':id/stats')
  @ApiParam({ name: 'id', description: 'Id of the campaign.' })
  @ApiOperation({
    summary: "A campaign's report per UTC day (operators)",
    description:
      'Impressions, billed and unbilled clicks (with their share, `invalid_click_rate`, and their reasons, forged follows of the campaign included: `bad_signature`, `unknown_impression`), CTR and spend per UTC day from `from` to `to`, with totals and the remaining budget. `format=csv` downloads the days as CSV.',
  })
  @ApiReportResponse(
    CampaignStatsDto,
    'date,impressions,clicks,invalid_clicks,ctr,spend,invalid_click_rate,unbilled_bad_signature,unbilled_unknown_impression,…\r\n2026-11-01,1200,30,4,0.025,10.5,0.117647,1,0,…\r\n',
  )
  @ApiProblemResponses({ 400: ['validation_failed'], 404: ['campaign_not_found'] })
  async getCampaignStats(
    @Param('id') id: string,
    @Query() query: ReportQueryDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<CampaignStatsDto | string> {
    return replyWithReport(
      reply,
      query.format,
      await this.campaigns.campaignStats(id, query),
      campaignStatsCsv,
    );
  }

  @Get(':id/audit')
  @ApiParam({ name: 'id', description: 'Id of the campaign.' })
  @ApiOperation({
    summary: "Who changed which of a campaign's fields, when (operators)",
    description: 'Newest change first, `per_page` (at most 100) entries at a time.',
  })
  @ApiOkResponse({ type: CampaignAuditPageDto })
  @ApiProblemResponses({ 400: ['validation_failed'], 404: ['campaign_not_found'] })
  listCampaignAudit(
    @Param('id') id: string,
    @Query() query: PageQueryDto,
  ): Promise<CampaignAuditPageDto> {
    return this.campaigns.campaignAudit(id, query);
  }
}
