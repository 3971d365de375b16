import { Injectable } from '@nestjs/common';
import type { CampaignIndexService } from '@/campaign-index/campaign-index.service';
import { explainMatch } from '@/campaign-index/explain';
import type { MatchRequest, MatchResult } from '@/campaign-index/matching/matching.types';
import type { Impression } from '@/tracking/entities/impression.entity';
import type { ExplanationDto } from './explanation.dto';
import { ReceiptSigner } from './receipt-signer';
import { explanationOf, type ServedMatch } from './stored-explanation';

/** What a served ad carries of "why this ad": its receipt, and its explanation when asked. */
export interface AdExplanation {
  receipt: string;
  explanation?: ExplanationDto;
}

/**
 * "Why this ad", as fetch-ads uses it: what an ad's impression keeps of why its campaign won
 * (`stored-explanation.ts`), and what the served ad carries of it. The receipt's look-up
 * (`ReceiptsService`) reads the same stored facts, so both answer the same explanation.
 */
@Injectable()
export class AdExplanations {
  constructor(private readonly receipts: ReceiptSigner) {}

  /**
   * Why the campaign won, for its impression to keep: for the ads served only, so the match
   * itself pays nothing for "why this ad". `index` is the one that chose the ad.
   */
  forImpression(
    index: CampaignIndexService['current'],
    match: MatchResult,
    request: Pick<MatchRequest, 'keywords' | 'conversation' | 'locale'>,
  ): ServedMatch {
    const { campaign } = match;
    return {
      relevance: match.relevance,
      matched: explainMatch(index, campaign, request),
      campaignCountries: campaign.countries,
      campaignDevices: campaign.devices,
    };
  }

  /** What the ad of a recorded impression carries: its receipt, and its explanation if `explain`. */
  forAd(impression: Impression, explain: boolean): AdExplanation {
    return {
      receipt: this.receipts.sign(impression.id),
      // From the stored facts, so that it is what the receipt's look-up shows later.
      ...(explain ? { explanation: explanationOf(impression)! } : {}),
    };
  }
}
