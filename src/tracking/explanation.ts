import type { MatchedKeyword } from '@/campaign-index/explain';
import type { Device } from '@/campaigns/devices';
import { microsToUnits, PPM } from '@/common/money';
import type { ExplanationDto } from './dto/explanation.dto';
import type { Impression } from './entities/impression.entity';

/**
 * The facts of "why this ad" as an impression stores them, so that its receipt shows the
 * same explanation later, whatever the campaign's keywords, targeting or the index's
 * keyword weights have become. The bid, country and device are the impression's own
 * columns already; these add the rest:
 *
 * - `relevance_ppm`: the match's relevance in parts per million;
 * - `matched`: `{"k":[sent keywords],"c":[conversation keywords]}`, compact JSON, as many
 *   keywords as the column holds (a campaign may have 100 of up to 100 characters);
 * - `campaign_targets`: `DE,AT;mobile`, the campaign's countries and devices (`;` alone
 *   when it targets everyone).
 *
 * All three are null on impressions served before explanations were recorded.
 */
export type ExplanationColumns = Pick<Impression, 'relevancePpm' | 'matched' | 'campaignTargets'>;

/** What fetch-ads knows of a match when it records the impression. */
export interface ServedMatch {
  /** In (0, 1]: `MatchResult.relevance`. */
  relevance: number;
  matched: readonly MatchedKeyword[];
  campaignCountries: readonly string[];
  campaignDevices: readonly string[];
}

/** `{"k":[],"c":[]}`: what `matched` holds before its first keyword. */
const EMPTY_MATCHED_LENGTH = 15;

/** The columns of a match; `matched` fits in `matchedWidth` characters. */
export function explanationColumns(match: ServedMatch, matchedWidth: number): ExplanationColumns {
  const sent: string[] = [];
  const found: string[] = [];
  let length = EMPTY_MATCHED_LENGTH;
  for (const { keyword, source } of match.matched) {
    const list = source === 'context_keywords' ? sent : found;
    const added = JSON.stringify(keyword).length + (list.length > 0 ? 1 : 0);
    // Sent keywords come first: when some must go, those from the conversation go first.
    if (length + added > matchedWidth) break;
    length += added;
    list.push(keyword);
  }
  return {
    relevancePpm: Math.round(match.relevance * PPM),
    matched: JSON.stringify({ k: sent, c: found }),
    campaignTargets: `${match.campaignCountries.join(',')};${match.campaignDevices.join(',')}`,
  };
}

/** The explanation of an impression; null when it was served before explanations were kept. */
export function explanationOf(
  impression: ExplanationColumns & Pick<Impression, 'bidMicros' | 'country' | 'device'>,
): ExplanationDto | null {
  const { relevancePpm, matched, campaignTargets } = impression;
  if (relevancePpm === null || matched === null || campaignTargets === null) return null;
  const { k: sent, c: found } = JSON.parse(matched) as { k: string[]; c: string[] };
  const [countries, devices] = campaignTargets.split(';');
  const list = (text: string): string[] => (text === '' ? [] : text.split(','));
  return {
    matched_keywords: [
      ...sent.map((keyword) => ({ keyword, source: 'context_keywords' as const })),
      ...found.map((keyword) => ({ keyword, source: 'conversation' as const })),
    ],
    targeting: {
      country: impression.country,
      device: impression.device as Device | null,
      campaign_countries: list(countries),
      campaign_devices: list(devices) as Device[],
    },
    relevance: relevancePpm / PPM,
    bid: microsToUnits(impression.bidMicros),
    // From the stored relevance, so that score = relevance × bid holds to the micro.
    score: microsToUnits(Math.round((relevancePpm * impression.bidMicros) / PPM)),
  };
}
