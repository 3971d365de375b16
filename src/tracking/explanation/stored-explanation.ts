import {
  KEYWORD_MATCHES,
  type KeywordMatch,
  type KeywordSource,
  type MatchedKeyword,
  type MatchedWord,
  WORD_MATCHES,
  type WordMatch,
  wordsAsWritten,
} from '@/campaign-index/explain';
import type { Device } from '@/campaigns/campaigns/devices';
import { microsToUnits, PPM } from '@/common/money';
import type { ExplanationDto } from './explanation.dto';
import type { Impression } from '@/tracking/entities/impression.entity';

/**
 * The facts of "why this ad" as an impression stores them, so that its receipt shows the
 * same explanation later, whatever the campaign's keywords, targeting or the index's
 * keyword weights have become. The bid, country and device are the impression's own
 * columns already; these add the rest:
 *
 * - `relevance_ppm`: the match's relevance in parts per million;
 * - `matched`: `{"k":[sent keywords],"c":[conversation keywords]}`, compact JSON, as many
 *   keywords as the column holds (a campaign may have 100 of up to 100 characters). A
 *   keyword met as written is its string; one met otherwise is
 *   `[keyword, match, "word:kind word:kind", translation?]` with the first letter of each
 *   match (`e`xact, `s`tem, `p`artial, `t`ranslation; words: `e`xact, `s`tem, `p`art,
 *   `c`onversation);
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
  const sent: StoredKeyword[] = [];
  const found: StoredKeyword[] = [];
  let length = EMPTY_MATCHED_LENGTH;
  for (const matched of match.matched) {
    const list = matched.source === 'context_keywords' ? sent : found;
    const stored = storedKeyword(matched);
    const added = JSON.stringify(stored).length + (list.length > 0 ? 1 : 0);
    // Sent keywords come first: when some must go, those from the conversation go first.
    if (length + added > matchedWidth) break;
    length += added;
    list.push(stored);
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
  const { k: sent, c: found } = JSON.parse(matched) as { k: StoredKeyword[]; c: StoredKeyword[] };
  const [countries, devices] = campaignTargets.split(';');
  const list = (text: string): string[] => (text === '' ? [] : text.split(','));
  return {
    matched_keywords: [
      ...sent.map((stored) => matchedKeyword(stored, 'context_keywords')),
      ...found.map((stored) => matchedKeyword(stored, 'conversation')),
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

/** A matched keyword as `matched` stores it (see `ExplanationColumns`). */
type StoredKeyword = string | [string, string, string] | [string, string, string, string];

const code = (name: string): string => name[0];

function storedKeyword({ keyword, match, words, translation }: MatchedKeyword): StoredKeyword {
  const asWritten =
    match === 'exact' &&
    words.every((word) => word.match === 'exact') &&
    words.map((word) => word.word).join(' ') ===
      wordsAsWritten(keyword)
        .map((w) => w.word)
        .join(' ');
  if (asWritten) return keyword;
  const wordList = words.map(({ word, match: kind }) => `${word}:${code(kind)}`).join(' ');
  return translation === null
    ? [keyword, code(match), wordList]
    : [keyword, code(match), wordList, translation];
}

function matchedKeyword(stored: StoredKeyword, source: KeywordSource): MatchedKeyword {
  if (typeof stored === 'string') {
    return {
      keyword: stored,
      source,
      match: 'exact',
      words: wordsAsWritten(stored),
      translation: null,
    };
  }
  const [keyword, match, wordList, translation] = stored;
  const words: MatchedWord[] =
    wordList === ''
      ? []
      : wordList.split(' ').map((entry) => {
          const colon = entry.lastIndexOf(':');
          return {
            word: entry.slice(0, colon),
            match: byCode(WORD_MATCHES, entry.slice(colon + 1)) as WordMatch,
          };
        });
  return {
    keyword,
    source,
    match: byCode(KEYWORD_MATCHES, match) as KeywordMatch,
    words,
    translation: translation ?? null,
  };
}

function byCode(names: readonly string[], letter: string): string {
  return names.find((name) => code(name) === letter) ?? names[0];
}
