import type { Device } from '@/campaigns/campaigns/devices';

/**
 * A campaign as the matcher sees it: only what matching, scoring and rendering need.
 * Built from an eligible campaign (active, inside its schedule, budget left) when the
 * index is rebuilt; never read from the database per request.
 */
export interface IndexedCampaign {
  id: string;
  /** The advertiser who pays for it: publishers may block advertisers per model. */
  advertiserId: string;
  name: string;
  text: string;
  imageUrl: string | null;
  targetUrl: string;
  /**
   * The landing URL's click id parameter (`click_id_param`); null: none is added. Absent:
   * the default (`adl_click`), so snapshots built by hand need not name it.
   */
  clickIdParam?: string | null;
  /** An IAB content category id (`CONTENT_CATEGORIES`), or null: not categorised. */
  category: string | null;
  /** Normalised with `normaliseKeyword`, de-duplicated, at least one. */
  keywords: string[];
  /**
   * Phrases an operator entered as translations of some of `keywords` (key: the keyword,
   * normalised; values: normalised phrases). A translation reaches its keyword's weight
   * without adding weight of its own, so listing a keyword in four languages this way does
   * not dilute the campaign's relevance. Absent: none.
   */
  translations?: Readonly<Record<string, readonly string[]>>;
  /** Bid per click in micros (1 unit = 1,000,000 micros). */
  bidMicros: number;
  /** ISO 3166-1 alpha-2 codes, upper case; empty means every country. */
  countries: string[];
  /** Empty means every device. */
  devices: Device[];
  /** Epoch milliseconds; the older campaign wins a tie. */
  createdAt: number;
}

export interface MatchRequest {
  /** Normalised, de-duplicated keywords of the request (`parseKeywordList`). */
  keywords: string[];
  /** The conversation text as sent; may add relevance among candidates. */
  conversation: string;
  /**
   * The request's BCP 47 locale: its language, when the matcher knows it (en, de, fr, es),
   * is the one whose stems and stop words the keywords are read with. Absent, or another
   * language: told from the conversation, else all four tried.
   */
  locale?: string;
  /** Resolved country of the user, or null when the request does not show one. */
  country: string | null;
  /** Resolved device class of the user, or null when the request does not show one. */
  device: Device | null;
}

export interface MatchResult {
  campaign: IndexedCampaign;
  /**
   * Relevance in (0, 1]: the weighted share of the campaign's three heaviest keywords met,
   * times 0.7 + 0.3 × the share of the request's sent keywords it explains and, in a
   * conversation that asks for nothing, 0.7 (`RELEVANCE_TUNING`).
   */
  relevance: number;
  /** relevance × bid; the winner has the highest. */
  score: number;
}

/**
 * What a publisher keeps away from its model (its controls, with the request's
 * `excluded_topics` among the categories): values as stored, compiled against the index per
 * request. Every member may be left out.
 */
export interface MatchControls {
  /** IAB content category ids: their campaigns are not served. */
  blockedCategories?: Iterable<string>;
  /** Advertiser ids: their campaigns are not served. */
  blockedAdvertisers?: Iterable<string>;
  /** Normalised keywords: a campaign that targets one of them is not served. */
  blockedKeywords?: Iterable<string>;
  /** 0–1: a campaign whose relevance is below it is not served. */
  relevanceFloor?: number;
}

/**
 * The ads `select` found, best first, or why none: nothing matched, matches were all targeted
 * elsewhere, or the controls took every match away.
 */
export interface Selection {
  results: MatchResult[];
  /** Why `results` is empty (`no_match` otherwise). */
  unmet: 'no_match' | 'no_targeted_match' | 'blocked' | 'relevance_floor';
}
