import type { MatchControls } from '@/campaign-index/matching/matching.types';
import {
  FACTS_PER_CAMPAIGN,
  type KeywordPostings,
  META,
  type RankedCampaigns,
  TARGETING_UNIT,
} from '../index/index-layout';

/**
 * A publisher's controls compiled against one index: the blocked categories, advertisers and
 * keywords as the index's codes and keyword ids, so that a candidate is judged by comparing
 * numbers. Made per request, and only for a request with controls (`compileFilter` answers
 * null otherwise): the search of a request without them calls nothing and allocates nothing.
 *
 * A value no indexed campaign holds compiles to nothing. A candidate is judged only once it
 * would become the best (after scoring and targeting), and what it is refused for is noted:
 * when no candidate passes, `unmet` tells the publisher which control took the ad away.
 */
export class MatchFilter {
  /** A refused candidate was blocked (category, advertiser or keyword). */
  blocked = false;
  /** A candidate that no block refused was below the relevance floor. */
  belowFloor = false;

  constructor(
    private readonly ranked: RankedCampaigns,
    private readonly categoryCodes: ReadonlySet<number>,
    /** Mutable: `select` adds each chosen ad's advertiser, so the next ad is another's. */
    readonly advertiserCodes: Set<number>,
    private readonly keywordIds: ReadonlySet<number>,
    private readonly relevanceFloor: number,
  ) {}

  /** Whether the campaign at `rank`, met with `relevance`, may be served. */
  admits(rank: number, relevance: number): boolean {
    const { ranked } = this;
    if (
      this.categoryCodes.has(ranked.categoryOf[rank]) ||
      this.advertiserCodes.has(ranked.advertiserOf[rank]) ||
      this.targetsBlockedKeyword(rank)
    ) {
      this.blocked = true;
      return false;
    }
    if (relevance < this.relevanceFloor) {
      this.belowFloor = true;
      return false;
    }
    return true;
  }

  /**
   * The request's keywords less the blocked ones. Every campaign in a blocked keyword's list
   * targets it and is refused, so its list need not be walked (a blocked keyword the request
   * sends costs nothing, instead of a walk through every campaign holding it), and campaigns
   * it does not hold get nothing from it: the search stays exact. Dropping a sent one
   * (`sent`) counts as a block for `unmet`: its campaigns were candidates.
   */
  withoutBlocked(keywordIds: number[], sent: boolean): number[] {
    if (this.keywordIds.size === 0) return keywordIds;
    const kept = keywordIds.filter((id) => !this.keywordIds.has(id));
    if (sent && kept.length < keywordIds.length) this.blocked = true;
    return kept;
  }

  /** Why no candidate passed: a floor met by nothing unblocked is named before a block. */
  get unmet(): 'relevance_floor' | 'blocked' | 'no_match' {
    if (this.belowFloor) return 'relevance_floor';
    return this.blocked ? 'blocked' : 'no_match';
  }

  /** A blocked keyword removes every campaign that targets it, matched by the request or not. */
  private targetsBlockedKeyword(rank: number): boolean {
    if (this.keywordIds.size === 0) return false;
    const { facts, keywordIds } = this.ranked;
    const start = facts[rank * FACTS_PER_CAMPAIGN + META] % TARGETING_UNIT;
    const end = facts[(rank + 1) * FACTS_PER_CAMPAIGN + META] % TARGETING_UNIT;
    for (let at = start; at < end; at++) {
      if (this.keywordIds.has(keywordIds[at])) return true;
    }
    return false;
  }
}

/**
 * The filter for `controls` on this index; null when it would admit every campaign, unless
 * `always` (several ads: the filter then keeps their advertisers apart).
 */
export function compileFilter(
  ranked: RankedCampaigns,
  keywords: KeywordPostings,
  controls: MatchControls,
  always: boolean,
): MatchFilter | null {
  const categoryCodes = codesOf(controls.blockedCategories, (v) => ranked.categories.find(v));
  const advertiserCodes = codesOf(controls.blockedAdvertisers, (v) => ranked.advertisers.find(v));
  const keywordIds = codesOf(controls.blockedKeywords, (v) => keywords.ids.get(v));
  const floor = controls.relevanceFloor ?? 0;
  if (
    categoryCodes.size === 0 &&
    advertiserCodes.size === 0 &&
    keywordIds.size === 0 &&
    floor <= 0 &&
    !always
  ) {
    return null;
  }
  return new MatchFilter(ranked, categoryCodes, advertiserCodes, keywordIds, floor);
}

function codesOf(
  values: Iterable<string> | undefined,
  find: (value: string) => number | undefined,
): Set<number> {
  const codes = new Set<number>();
  if (values === undefined) return codes;
  for (const value of values) {
    const code = find(value);
    if (code !== undefined) codes.add(code);
  }
  return codes;
}
