import { Injectable } from '@nestjs/common';
import { CampaignIndexService } from '@/campaign-index/campaign-index.service';
import type { Selection } from '@/campaign-index/matching/matching.types';
import { microsToUnits } from '@/common/money';
import { AppConfig } from '@/config/app-config';
import { FillStatsRecorder } from '@/earnings/fill-stats-recorder.service';
import { MetricsService } from '@/metrics/metrics.service';
import type { KeyCredential } from '@/publishers/publisher-credentials';
import { SensitiveTopicDetector } from '@/safety/sensitive-topic-detector.service';
import { AdViewLinks } from '@/tracking/ad-view-link';
import { ClickLinkSigner } from '@/tracking/click-link';
import { type RecordedAd, ServedAds } from '@/tracking/served-ads.service';
import { readAdRequest } from './ad-request';
import { completeAdMarkdown } from './ad-markdown';
import { CampaignMarkdown } from './campaign-markdown';
import { type Disclosure, Disclosures } from './disclosure';
import type { FetchAdsRequestDto } from './dto/fetch-ads-request.dto';
import type { AdvertisementDto, FetchAdsResponseDto } from './dto/fetch-ads-response.dto';
import { FrequencyCapService } from './frequency-cap.service';
import { noAd } from './no-ad';

/** Picks the best ads for a request (one unless `max_ads`), records their impressions, and renders them. */
@Injectable()
export class AdsService {
  private readonly disclosures: Disclosures;
  /** The campaign part of each ad's Markdown, escaped once per campaign, not per ad. */
  private readonly markdown = new CampaignMarkdown();

  constructor(
    private readonly index: CampaignIndexService,
    private readonly servedAds: ServedAds,
    private readonly signer: ClickLinkSigner,
    private readonly config: AppConfig,
    private readonly metrics: MetricsService,
    private readonly sensitiveTopics: SensitiveTopicDetector,
    private readonly fills: FillStatsRecorder,
    private readonly frequencyCaps: FrequencyCapService,
    private readonly viewLinks: AdViewLinks,
  ) {
    this.disclosures = new Disclosures(config.serviceName);
  }

  /** Read the body, check it is no place for an ad, match, cap, record, render: in that order. */
  async fetchAds(
    caller: KeyCredential,
    body: FetchAdsRequestDto,
    acceptLanguage?: string,
  ): Promise<FetchAdsResponseDto> {
    const request = readAdRequest(body, caller.controls);
    // Before matching: no ad beside self-harm, a crisis, politics… whatever would match;
    // nor beside a turn the publisher's own moderation flagged.
    const { keywords, conversation } = request.match;
    if (
      request.flaggedByPublisher ||
      this.sensitiveTopics.topicOf(conversation, keywords, request.userTurns) !== null
    ) {
      this.refuse(caller, 'sensitive_topic');
    }
    // The same index explains the ads it chose, even if a rebuild swaps it in between.
    const index = this.index.current;
    const { results, unmet } = index.select(request.match, request.controls, request.maxAds);
    if (results.length === 0) this.refuse(caller, unmet);
    // After matching, so that only ads the session would be shown count against its cap.
    const allowed = await this.frequencyCaps.allowance(caller, request.sessionId, results.length);
    if (allowed === 0) this.refuse(caller, 'frequency_cap');
    // The ads go out only once their impressions are committed.
    const served = await this.servedAds.record(caller, request, results.slice(0, allowed), index);
    this.metrics.adsServed.inc(served.length);
    // Counted in memory (no write per request); a test key's request counts as `test`.
    this.fills.record(caller, 'filled');
    const disclosure = this.disclosures.for(body.locale, acceptLanguage);
    return { advertisements: served.map((ad) => this.render(ad, disclosure)) };
  }

  /** No ad: counted (metric and fill stats) and answered `404 no_matching_ad` with `reason`. */
  private refuse(
    caller: KeyCredential,
    reason: Selection['unmet'] | 'sensitive_topic' | 'frequency_cap',
  ): never {
    // The metric's label for no match predates the reasons.
    this.metrics.adNoFill.inc({ reason: reason === 'no_match' ? 'no_matching_ad' : reason });
    this.fills.record(caller, reason);
    throw noAd(reason);
  }

  private render(
    { campaign, impression, why }: RecordedAd,
    disclosure: Disclosure,
  ): AdvertisementDto {
    const link = this.signer.buildLink(this.config.baseUrl, {
      campaignId: campaign.id,
      modelId: impression.modelId,
      impressionId: impression.id,
      targetUrl: campaign.targetUrl,
    });
    return {
      campaign_name: campaign.name,
      campaign_text: campaign.text,
      ...(campaign.imageUrl ? { campaign_image: campaign.imageUrl } : {}),
      campaign_markdown: completeAdMarkdown(
        this.markdown.headOf(campaign),
        link,
        disclosure.attribution,
      ),
      campaign_link: link,
      view_url: this.viewLinks.urlOf(impression.id),
      bid_per_click: microsToUnits(campaign.bidMicros),
      sponsored: true,
      disclosure: disclosure.label,
      ...why,
    };
  }
}
