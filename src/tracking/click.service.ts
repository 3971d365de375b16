import { Injectable, Logger } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { isServable } from '@/campaigns/campaign-eligibility';
import { CampaignsService } from '@/campaigns/campaigns.service';
import { sqlDatetime } from '@/common/clock';
import { ProblemException } from '@/common/problem';
import { AppConfig } from '@/config/app-config';
import { newId } from '@/database/columns';
import { executeWrite, transactionWithRetry } from '@/database/sql';
import { EarningsService } from '@/earnings/earnings.service';
import { isKnownBot } from './bot-detector';
import { ClickLinkSigner } from './click-link';
import { ClickQueryDto } from './dto/click-query.dto';
import { Click, ClickStatus, InvalidClickReason } from './entities/click.entity';
import { Impression } from './entities/impression.entity';

type Outcome = { status: ClickStatus; reason?: InvalidClickReason };

/** Follows of tracking links: validates each one, records it, bills a valid one once. */
@Injectable()
export class ClickService {
  private readonly logger = new Logger(ClickService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly campaigns: CampaignsService,
    private readonly earnings: EarningsService,
    private readonly signer: ClickLinkSigner,
    private readonly config: AppConfig,
  ) {}

  /**
   * Records the click and returns where to send the person: always the campaign's own
   * target URL, whatever `targetLink` says, so the endpoint is never an open redirect.
   */
  async follow(query: ClickQueryDto, userAgent: string | undefined): Promise<string> {
    // A served campaign is known from memory; only a click on one the index dropped
    // (paused, spent, ended) reads the database.
    const served = this.campaigns.served(query.campaign_id);
    const campaign = served ?? (await this.campaigns.findById(query.campaign_id));
    if (!campaign) {
      throw ProblemException.notFound('campaign_not_found', 'No campaign has this campaign_id.');
    }
    const outcome = await transactionWithRetry(this.dataSource.manager, (manager) =>
      this.record(manager, campaign.id, query, userAgent),
    );
    // Only a campaign the index still serves can need dropping: a click on one it no longer
    // serves (say, many clicks on ads shown before the budget ran out) rebuilds nothing.
    const stillServed = served !== undefined && this.campaigns.served(campaign.id) !== undefined;
    if (
      stillServed &&
      outcome.status !== 'invalid' &&
      (outcome.status === 'over_budget' || (await this.isExhausted(campaign.id)))
    ) {
      await this.campaigns.notifyChanged();
    }
    return campaign.targetUrl;
  }

  private async record(
    manager: EntityManager,
    campaignId: string,
    query: ClickQueryDto,
    userAgent: string | undefined,
  ): Promise<Outcome> {
    const at = new Date();
    const click = manager.create(Click, {
      id: newId(),
      createdAt: at,
      impressionId: null,
      campaignId,
      modelId: query.model_id,
      publisherId: null,
      status: 'invalid',
      invalidReason: null,
      costMicros: 0,
      publisherEarningsMicros: 0,
      userAgent: userAgent?.slice(0, 512) ?? null,
    });
    const invalid = async (
      reason: InvalidClickReason,
      impression?: Impression,
    ): Promise<Outcome> => {
      await manager.insert(Click, { ...click, invalidReason: reason });
      if (impression) {
        await this.earnings.recordUnbilledClick(manager, { at, ...ids(impression) });
      }
      return { status: 'invalid', reason };
    };

    const signed = {
      campaignId,
      modelId: query.model_id,
      impressionId: query.imp ?? '',
    };
    if (!query.imp || !query.sig || !this.signer.verify(signed, query.sig)) {
      return invalid('bad_signature');
    }
    const impression = await manager.findOneBy(Impression, { id: query.imp });
    if (!impression) return invalid('unknown_impression');
    click.impressionId = impression.id;
    click.publisherId = impression.publisherId;
    if (impression.campaignId !== campaignId || impression.modelId !== query.model_id) {
      return invalid('mismatch', impression);
    }
    if (isKnownBot(userAgent)) return invalid('bot', impression);
    if (at.getTime() - impression.createdAt.getTime() > this.config.clickWindowMs) {
      return invalid('expired', impression);
    }
    // Claiming the impression is one conditional UPDATE: of concurrent follows, one wins.
    const claimed = await executeWrite(
      manager,
      'UPDATE impressions SET clicked_at = ? WHERE id = ? AND clicked_at IS NULL',
      [sqlDatetime(at), impression.id],
    );
    if (claimed !== 1) return invalid('duplicate', impression);

    const charged = await this.campaigns.chargeClick(manager, campaignId, impression.bidMicros, at);
    if (!charged) {
      await manager.insert(Click, { ...click, status: 'over_budget' });
      await this.earnings.recordUnbilledClick(manager, { at, ...ids(impression) });
      return { status: 'over_budget' };
    }
    const earned = await this.earnings.recordBilledClick(manager, {
      clickId: click.id,
      at,
      ...ids(impression),
      bidMicros: impression.bidMicros,
      revenueSharePpm: impression.revenueSharePpm,
    });
    await manager.insert(Click, {
      ...click,
      status: 'billed',
      costMicros: impression.bidMicros,
      publisherEarningsMicros: earned,
    });
    return { status: 'billed' };
  }

  /** True when the campaign cannot pay for another click, so the ad index must drop it. */
  private async isExhausted(campaignId: string): Promise<boolean> {
    const fresh = await this.campaigns.findById(campaignId);
    if (!fresh) return true;
    return !isServable(fresh, new Date());
  }
}

const ids = (impression: Impression) => ({
  campaignId: impression.campaignId,
  modelId: impression.modelId,
  publisherId: impression.publisherId,
});
