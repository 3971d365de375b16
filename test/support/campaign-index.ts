import { buildCampaignIndex } from '@/campaign-index/matching/campaign-index-builder';
import type { IndexedCampaign, MatchRequest } from '@/campaign-index/matching/matching.types';
import { parseKeywordList } from '@/common/keywords';

/*
 * Campaigns and requests for the matcher's specs (src/campaign-index/matching/campaign-index*.spec.ts).
 */

export const UNIT = 1_000_000;
const DAY = 86_400_000;

let sequence = 0;

/** A servable campaign; ids and creation times increase with each call unless given. */
export function campaign(
  keywords: string[],
  overrides: Partial<IndexedCampaign> = {},
): IndexedCampaign {
  sequence++;
  return {
    id: `campaign-${String(sequence).padStart(6, '0')}`,
    advertiserId: 'advertiser-1',
    name: `Campaign ${sequence}`,
    text: 'An ad',
    imageUrl: null,
    targetUrl: 'https://advertiser.example/landing',
    category: null,
    keywords,
    bidMicros: UNIT,
    countries: [],
    devices: [],
    createdAt: Date.UTC(2025, 0, 1) + sequence * DAY,
    ...overrides,
  };
}

/** A match request for comma-separated `keywords`; no conversation, country or device unless given. */
export function request(keywords: string, overrides: Partial<MatchRequest> = {}): MatchRequest {
  return {
    keywords: parseKeywordList(keywords),
    conversation: '',
    country: null,
    device: null,
    ...overrides,
  };
}

/** The id of the campaign a new index of `campaigns` shows for `matchRequest`. */
export function winnerOf(
  campaigns: IndexedCampaign[],
  matchRequest: MatchRequest,
): string | undefined {
  return buildCampaignIndex(campaigns).match(matchRequest)?.campaign.id;
}
