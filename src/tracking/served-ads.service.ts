import { Injectable } from '@nestjs/common';
import type { CampaignIndexService } from '@/campaign-index/campaign-index.service';
import type {
  IndexedCampaign,
  MatchRequest,
  MatchResult,
} from '@/campaign-index/matching/matching.types';
import type { Impression } from './entities/impression.entity';
import { type AdExplanation, AdExplanations } from './explanation/ad-explanations.service';
import { ImpressionWriter, type ServedAd } from './impression-writer.service';

/** What the impressions of a fetch-ads request keep of it. */
export interface ServedRequest {
  match: MatchRequest;
  /** As sent: cut to their columns' widths by the writer. */
  userLocation: string | undefined;
  userDeviceInfo: string | undefined;
  /** The answer carries each ad's explanation. */
  explain: boolean;
}

/** A served ad: its campaign, its committed impression, and what it carries of "why this ad". */
export interface RecordedAd {
  campaign: IndexedCampaign;
  impression: Impression;
  why: AdExplanation;
}

/**
 * Fetch-ads' one call into tracking: records the impression of each ad it serves, with why
 * its campaign won, and hands back what each ad carries of that (its receipt, and its
 * explanation when asked).
 */
@Injectable()
export class ServedAds {
  constructor(
    private readonly explanations: AdExplanations,
    private readonly writer: ImpressionWriter,
  ) {}

  /**
   * Resolves once every impression is committed: nothing served goes uncounted. Each ad is
   * its own impression, in one batch (the writer groups concurrent rows). `index` is the one
   * that chose the ads, so it explains them even if a rebuild swapped it in since.
   */
  async record(
    caller: ServedAd['caller'],
    request: ServedRequest,
    matches: readonly MatchResult[],
    index: CampaignIndexService['current'],
  ): Promise<RecordedAd[]> {
    const { keywords, conversation, country, device } = request.match;
    const impressions = await Promise.all(
      matches.map((match) =>
        this.writer.recordServed({
          caller,
          campaign: match.campaign,
          country,
          device,
          userLocation: request.userLocation,
          userDeviceInfo: request.userDeviceInfo,
          keywords,
          conversation,
          match: this.explanations.forImpression(index, match, request.match),
        }),
      ),
    );
    return impressions.map((impression, i) => ({
      campaign: matches[i].campaign,
      impression,
      why: this.explanations.forAd(impression, request.explain),
    }));
  }
}
