import { Injectable } from '@nestjs/common';
import { Clock, utcDay } from '@/common/clock';
import type { CampaignStatsDto, ReportQueryDto } from '@/reports/dto/reports.dto';
import { ReportsService } from '@/reports/reports.service';
import { spentOnDay } from '@/campaigns/billing/campaign-eligibility';
import { campaignNotFound, CampaignsService } from './campaigns.service';
import { CampaignAuditPageDto, toCampaignAuditEntryDto } from '@/campaigns/dto/campaign-audit.dto';
import {
  CampaignListQueryDto,
  CreateCampaignDto,
  toCampaignChanges,
  toNewCampaign,
  UpdateCampaignDto,
} from '@/campaigns/dto/campaign-input.dto';
import {
  CampaignDetailDto,
  CampaignDto,
  CampaignPageDto,
  toCampaignDto,
} from '@/campaigns/dto/campaign.dto';
import { CampaignPixels } from './campaign-pixel';
import { PageQueryDto, pageOf } from '@/common/dto/page-query.dto';
import type { Campaign } from '@/campaigns/entities/campaign.entity';

/**
 * The operator API's view of campaigns: request DTOs in, response DTOs out. The rules and
 * the writes stay in CampaignsService, whose change notices the ad index listens to.
 */
@Injectable()
export class CampaignManagementService {
  constructor(
    private readonly campaigns: CampaignsService,
    private readonly reports: ReportsService,
    private readonly clock: Clock,
    private readonly pixels: CampaignPixels,
  ) {}

  /** The UTC day whose spend counts as "today" (the clock of the click path). */
  private today(): string {
    return utcDay(this.clock.now());
  }

  async listCampaigns(query: CampaignListQueryDto): Promise<CampaignPageDto> {
    const page = pageOf(query);
    const { items, total } = await this.campaigns.list(
      { status: query.status, advertiserId: query.advertiser_id, keyword: query.keyword },
      page,
    );
    const today = this.today();
    return {
      items: items.map((c) => toCampaignDto(c, today)),
      page: page.page,
      per_page: page.perPage,
      total,
    };
  }

  async getCampaign(id: string): Promise<CampaignDetailDto> {
    const campaign = await this.require(id);
    return { ...toCampaignDto(campaign, this.today()), pixel: this.pixels.urls(campaign.id) };
  }

  async createCampaign(dto: CreateCampaignDto, actorId: string): Promise<CampaignDto> {
    const campaign = await this.campaigns.createCampaign(toNewCampaign(dto), actorId);
    return toCampaignDto(campaign, this.today());
  }

  async updateCampaign(id: string, dto: UpdateCampaignDto, actorId: string): Promise<CampaignDto> {
    const campaign = await this.campaigns.updateCampaign(id, toCampaignChanges(dto), actorId);
    return toCampaignDto(campaign, this.today());
  }

  async campaignAudit(id: string, query: PageQueryDto): Promise<CampaignAuditPageDto> {
    await this.require(id);
    const page = pageOf(query);
    const { items, total } = await this.campaigns.auditOf(id, page);
    return {
      items: items.map(toCampaignAuditEntryDto),
      page: page.page,
      per_page: page.perPage,
      total,
    };
  }

  async campaignStats(id: string, query: ReportQueryDto): Promise<CampaignStatsDto> {
    const campaign = await this.require(id);
    return this.reports.campaignStats(
      {
        campaignId: campaign.id,
        budgetTotalMicros: campaign.budgetTotalMicros,
        budgetDailyMicros: campaign.budgetDailyMicros,
        spentMicros: campaign.spentMicros,
        spentTodayMicros: spentOnDay(campaign, this.today()),
      },
      query,
    );
  }

  private async require(id: string): Promise<Campaign> {
    const campaign = await this.campaigns.findById(id);
    if (!campaign) throw campaignNotFound();
    return campaign;
  }
}
