import { Injectable } from '@nestjs/common';
import { microsToUnits } from '@/common/money';
import { AppConfig } from '@/config/app-config';
import { FillStatsRecorder } from '@/earnings/fill-stats-recorder.service';
import { MetricsService } from '@/metrics/metrics.service';
import type { KeyCredential } from '@/publishers/publisher-credentials';
import { ClickLinkSigner } from '@/tracking/click-link';
import { Impression } from '@/tracking/entities/impression.entity';
import { ImpressionWriter } from '@/tracking/impression-writer.service';
import { AdExplanations } from '@/tracking/explanation/ad-explanations.service';
import { completeAdMarkdown } from './ad-markdown';
import { CampaignMarkdown } from './campaign-markdown';
import { type Disclosure, Disclosures } from './disclosure';
import { FrequencyCapService } from './frequency-cap.service';
import { matchControlsFor } from './match-controls';
import { noAd } from './no-ad';
import { SensitiveTopicDetector } from '@/safety/sensitive-topic-detector.service';
import { CampaignIndexService } from '@/campaign-index/campaign-index.service';
import { conversationText, userTurns } from './dto/chat-message.dto';
import { flaggedByPublisher } from '@/safety/publisher-moderation';
import { FetchAdsRequestDto } from './dto/fetch-ads-request.dto';
import { AdvertisementDto, FetchAdsResponseDto } from './dto/fetch-ads-response.dto';
import type {
  IndexedCampaign,
  MatchRequest,
  MatchResult,
  Selection,
} from '@/campaign-index/matching/matching.types';
import { parseKeywordList } from '@/common/keywords';
import { resolveCountry, resolveDevice } from '@/campaign-index/matching/targeting';

/** Picks the best ads for a request (one unless `max_ads`), records their impressions, and renders them. */
@Injectable()
export class AdsService {
  private readonly disclosures: Disclosures;
  /** The campaign part of each ad's Markdown, escaped once per campaign, not per ad. */
  private readonly markdown = new CampaignMarkdown();

  constructor(
    private readonly index: CampaignIndexService,
    private readonly impressions: ImpressionWriter,
    private readonly signer: ClickLinkSigner,
    private readonly explanations: AdExplanations,
    private readonly config: AppConfig,
    private readonly metrics: MetricsService,
    private readonly sensitiveTopics: SensitiveTopicDetector,
    private readonly fills: FillStatsRecorder,
    private readonly frequencyCaps: FrequencyCapService,
  ) {
    this.disclosures = new Disclosures(config.serviceName);
  }

  async fetchAds(
    caller: KeyCredential,
    request: FetchAdsRequestDto,
    acceptLanguage?: string,
  ): Promise<FetchAdsResponseDto> {
    const keywords = parseKeywordList(request.context_keywords);
    // `conversation` as sent, or the chat `messages` as `role: content` lines.
    const conversation = conversationText(request);
    // Before matching: no ad beside self-harm, a crisis, politics… whatever would match;
    // nor beside a turn the publisher's own moderation flagged.
    if (
      flaggedByPublisher(request.moderation) ||
      this.sensitiveTopics.topicOf(conversation, keywords, userTurns(request)) !== null
    ) {
      this.refuse(caller, 'sensitive_topic');
    }
    const country = resolveCountry(request.user_location);
    const device = resolveDevice(request.user_device_info);
    // The same index explains the ads it chose, even if a rebuild swaps it in between.
    const index = this.index.current;
    const matchRequest = {
      keywords,
      conversation,
      locale: request.locale,
      country,
      device,
    };
    const { results, unmet } = index.select(
      matchRequest,
      matchControlsFor(caller.controls, request.excluded_topics),
      request.max_ads ?? 1,
    );
    if (results.length === 0) this.refuse(caller, unmet);
    // After matching, so that only ads the session would be shown count against its cap.
    const allowed = await this.frequencyCaps.allowance(caller, request.session_id, results.length);
    if (allowed === 0) this.refuse(caller, 'frequency_cap');
    const served = results.slice(0, allowed);
    // The ads go out only once their impressions are committed: nothing served goes uncounted.
    // Each ad is its own impression (one batch: the writer groups concurrent rows).
    const impressions = await Promise.all(
      served.map((match) => this.recordImpression(caller, request, matchRequest, match, index)),
    );
    this.metrics.adsServed.inc(served.length);
    // Counted in memory (no write per request); a test key's request counts as `test`.
    this.fills.record(caller, 'filled');
    const disclosure = this.disclosures.for(request.locale, acceptLanguage);
    const explain = request.explain === true;
    return {
      advertisements: served.map(({ campaign }, i) =>
        this.render(campaign, impressions[i], disclosure, explain),
      ),
    };
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

  private recordImpression(
    caller: KeyCredential,
    request: FetchAdsRequestDto,
    matchRequest: MatchRequest,
    match: MatchResult,
    index: CampaignIndexService['current'],
  ): Promise<Impression> {
    const { campaign } = match;
    const { keywords, country, device } = matchRequest;
    const why = this.explanations.forImpression(index, match, matchRequest);
    return this.impressions.recordServed({
      caller,
      campaign,
      country,
      device,
      userLocation: request.user_location,
      userDeviceInfo: request.user_device_info,
      keywords,
      conversation: matchRequest.conversation,
      match: why,
    });
  }

  private render(
    campaign: IndexedCampaign,
    impression: Impression,
    disclosure: Disclosure,
    explain: boolean,
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
      bid_per_click: microsToUnits(campaign.bidMicros),
      sponsored: true,
      disclosure: disclosure.label,
      ...this.explanations.forAd(impression, explain),
    };
  }
}
