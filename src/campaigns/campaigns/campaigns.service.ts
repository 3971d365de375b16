import { Injectable } from '@nestjs/common';
import { normaliseKeyword } from '@/common/keywords';
import type { Device } from '@/campaigns/campaigns/devices';
import { utcDay } from '@/common/clock';
import { ProblemException } from '@/common/problem';
import { newId } from '@/database/columns';
import { AdvertisersService } from '@/campaigns/advertisers/advertisers.service';
import { auditSnapshot, CampaignChanges, fieldChanges } from '@/campaigns/audit/campaign-audit';
import { CampaignChangeNotifier } from '@/campaigns/change-notices/campaign-change-notifier.service';
import { assertCampaignRules, assertChangeable } from './campaign-rules';
import { CampaignsRepository } from './campaigns.repository';
import { ServabilityRepository } from '@/campaigns/change-notices/servability.repository';
import { type KeywordTranslations, translationsOf } from './keyword-translations';
import { toCampaignDto } from '@/campaigns/dto/campaign.dto';
import type { Page } from '@/common/dto/page-query.dto';
import { CampaignAuditEntry } from '@/campaigns/entities/campaign-audit-entry.entity';
import {
  Campaign,
  CampaignStatus,
  DEFAULT_ATTRIBUTION_WINDOW_DAYS,
  DEFAULT_CLICK_ID_PARAM,
} from '@/campaigns/entities/campaign.entity';

export interface NewCampaign {
  advertiserId: string;
  name: string;
  text: string;
  imageUrl?: string | null;
  targetUrl: string;
  /** An id of `CONTENT_CATEGORIES`; null or absent: not categorised. */
  category?: string | null;
  /** Already normalised. */
  keywords: string[];
  /** Already normalised; its keys must be among `keywords`. Absent: none. */
  keywordTranslations?: KeywordTranslations;
  bidMicros: number;
  budgetTotalMicros?: number | null;
  budgetDailyMicros?: number | null;
  startsAt?: Date | null;
  endsAt?: Date | null;
  countries?: string[];
  devices?: Device[];
  status?: CampaignStatus;
  /** Absent: `adl_click`; null: no click id on the landing URL. */
  clickIdParam?: string | null;
  /** Absent: 30. */
  attributionWindowDays?: number;
}

export interface CampaignFilter {
  status?: CampaignStatus;
  advertiserId?: string;
  keyword?: string;
}

/**
 * Campaigns and the rules of changing them. Every change goes through here, is audited and
 * counted in the servability version (what other instances' ad indexes probe) in the same
 * transaction, and tells the listeners (the ad index) before the call returns.
 */
@Injectable()
export class CampaignsService {
  constructor(
    private readonly campaigns: CampaignsRepository,
    private readonly advertisers: AdvertisersService,
    private readonly changes: CampaignChangeNotifier,
    private readonly servability: ServabilityRepository,
  ) {}

  /** @param actorId the operator who creates it; null when the service itself does. */
  async createCampaign(input: NewCampaign, actorId: string | null = null): Promise<Campaign> {
    if (!(await this.advertisers.findById(input.advertiserId))) {
      throw ProblemException.validation([
        { field: 'advertiser_id', message: 'advertiser_id names no advertiser' },
      ]);
    }
    const now = new Date();
    const campaign: Campaign = {
      id: newId(),
      advertiserId: input.advertiserId,
      name: input.name,
      text: input.text,
      imageUrl: input.imageUrl ?? null,
      targetUrl: input.targetUrl,
      category: input.category ?? null,
      keywords: input.keywords,
      keywordTranslations: input.keywordTranslations ?? {},
      countries: input.countries ?? [],
      devices: input.devices ?? [],
      bidMicros: input.bidMicros,
      budgetTotalMicros: input.budgetTotalMicros ?? null,
      budgetDailyMicros: input.budgetDailyMicros ?? null,
      spentMicros: 0,
      spentTodayMicros: 0,
      spentDay: null,
      startsAt: input.startsAt ?? null,
      endsAt: input.endsAt ?? null,
      status: input.status ?? 'active',
      clickIdParam: input.clickIdParam === undefined ? DEFAULT_CLICK_ID_PARAM : input.clickIdParam,
      attributionWindowDays: input.attributionWindowDays ?? DEFAULT_ATTRIBUTION_WINDOW_DAYS,
      createdAt: now,
      updatedAt: now,
    };
    assertCampaignRules(campaign);
    campaign.keywordTranslations = translationsOf(campaign.keywords, campaign.keywordTranslations);
    await this.campaigns.transaction(async (transaction) => {
      await this.campaigns.insertWithAudit(transaction, campaign, {
        ...auditEntry(campaign.id, actorId, now),
        action: 'created',
        newValue: auditSnapshot(toCampaignDto(campaign, utcDay(now))),
      });
      await this.servability.countChange(transaction);
    });
    await this.changes.notifyChanged();
    return campaign;
  }

  /**
   * Applies an operator's changes: the cross-field rules hold for the result, an archived
   * campaign refuses any change (409), and each changed field gets an audit row. Spend
   * columns are never written here, so a concurrent click's charge is never overwritten.
   */
  async updateCampaign(
    id: string,
    changes: CampaignChanges,
    actorId: string | null = null,
  ): Promise<Campaign> {
    const now = new Date();
    const today = utcDay(now);
    const outcome = await this.campaigns.transaction(async (transaction) => {
      // Locked, so that concurrent edits audit against what they replace.
      const current = await this.campaigns.lockForUpdate(transaction, id);
      if (!current) throw campaignNotFound();
      assertChangeable(current);
      const next: Campaign = {
        ...current,
        ...changes,
        // Sent translations replace the map; new keywords alone keep those of the remaining.
        keywordTranslations:
          changes.keywordTranslations ??
          translationsOf(changes.keywords ?? current.keywords, current.keywordTranslations),
        updatedAt: now,
      };
      assertCampaignRules(next);
      next.keywordTranslations = translationsOf(next.keywords, next.keywordTranslations);
      const changed = fieldChanges(toCampaignDto(current, today), toCampaignDto(next, today));
      if (changed.length === 0) return { campaign: current, changed: false };
      await this.campaigns.updateWithAudit(
        transaction,
        id,
        { ...changes, keywordTranslations: next.keywordTranslations, updatedAt: now },
        changed.map((change) => ({
          ...auditEntry(id, actorId, now),
          action: 'updated' as const,
          field: change.field,
          oldValue: change.oldValue,
          newValue: change.newValue,
        })),
      );
      await this.servability.countChange(transaction);
      return { campaign: next, changed: true };
    });
    if (outcome.changed) await this.changes.notifyChanged();
    return outcome.campaign;
  }

  findById(id: string): Promise<Campaign | null> {
    return this.campaigns.findById(id);
  }

  /** Newest first; a keyword filter matches campaigns targeting it once normalised. */
  list(filter: CampaignFilter, page: Page): Promise<{ items: Campaign[]; total: number }> {
    const { keyword } = filter;
    return this.campaigns.listNewestFirst(
      {
        status: filter.status,
        advertiserId: filter.advertiserId,
        keyword: keyword === undefined ? undefined : normaliseKeyword(keyword),
      },
      page,
    );
  }

  /** Newest change first; the fields of one change in their usual order. */
  auditOf(campaignId: string, page: Page): Promise<{ items: CampaignAuditEntry[]; total: number }> {
    return this.campaigns.auditNewestFirst(campaignId, page);
  }
}

export const campaignNotFound = (): ProblemException =>
  ProblemException.notFound('campaign_not_found', 'No campaign has this id.');

function auditEntry(campaignId: string, actorId: string | null, at: Date) {
  return {
    id: newId(),
    campaignId,
    actorId,
    field: null,
    oldValue: null,
    newValue: null,
    createdAt: at,
  };
}
