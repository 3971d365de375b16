import { buildCampaignIndex } from '@/campaign-index/matching/campaign-index-builder';
import type { IndexedCampaign } from '@/campaign-index/matching/matching.types';
import { parseKeywordList } from '@/common/keywords';
import { unitsToMicros } from '@/common/money';
import type { Serve } from './evaluate';
import type { LabelledSet } from './labelled-set';

/**
 * Serves the set's conversations from the matcher itself, in process: the catalog indexed
 * as the service indexes it, each conversation matched as fetch-ads matches a request with
 * no locale, no location and no device (the language is told from the conversation).
 */
export function matcherServer(set: LabelledSet): Serve {
  const campaigns: IndexedCampaign[] = set.campaigns.map((campaign, position) => ({
    id: campaign.id,
    advertiserId: campaign.advertiser,
    name: campaign.name,
    text: campaign.text,
    imageUrl: null,
    targetUrl: campaign.target_url,
    category: null,
    keywords: campaign.keywords,
    translations: campaign.keyword_translations ?? {},
    bidMicros: unitsToMicros(campaign.bid_per_click),
    countries: [],
    devices: [],
    createdAt: position,
  }));
  const index = buildCampaignIndex(campaigns);
  return (_language, { conversation, keywords }) => {
    const match = index.match({
      keywords: parseKeywordList(keywords.join(', ')),
      conversation,
      country: null,
      device: null,
    });
    return Promise.resolve(match?.campaign.id ?? null);
  };
}
