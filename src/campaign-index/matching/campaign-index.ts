import type {
  IndexedCampaign,
  MatchControls,
  MatchRequest,
  MatchResult,
  Selection,
} from '@/campaign-index/matching/matching.types';
import { CONVERSATION_KEYWORD_FACTOR, markConversationKeywords } from './conversation-keywords';
import {
  BID,
  EXCLUDED_BID,
  FACTS_PER_CAMPAIGN,
  type KeywordPostings,
  META,
  NO_CATEGORY,
  type RankedCampaigns,
  type RequestKeywords,
  TARGETING_UNIT,
} from './index-layout';
import { compileFilter, type MatchFilter } from './match-filter';
import { walkSentLists } from './max-score-walk';
import { Search } from './scoring';

/**
 * An in-memory index of the servable campaigns, built once from a snapshot
 * (`CampaignIndexBuilder`), immutable but for `exclude`.
 *
 * Campaigns are numbered by rank: descending bid per unit of keyword weight
 * (`bid / totalWeight`, ties in the tie-break order). Each keyword's posting list is an
 * ascending Int32Array of ranks, so walking lists visits campaigns from the highest
 * attainable score per unit of matched weight down, and a campaign's score is
 * `bidPerWeight × matchedWeight`: this lets the walk skip most campaigns and stop early.
 * Each campaign also lists its own keyword ids (a forward index), so scoring a candidate
 * reads its few keywords instead of searching every request keyword's list.
 * Memory: 8 bytes per (campaign, keyword) pair, about 110 bytes per campaign in typed
 * arrays and the id table, plus the render strings (id, name, text, URLs) as UTF-8 bytes.
 * None of it is a JS object per campaign: a major GC does not grow with the campaigns.
 */
export class CampaignIndex {
  private excludedCount = 0;
  private readonly request: RequestKeywords;

  /** @internal Made by `CampaignIndexBuilder`. */
  constructor(
    private readonly ranked: RankedCampaigns,
    private readonly keywords: KeywordPostings,
  ) {
    const vocabularySize = keywords.names.length;
    this.request = {
      stamps: new Int32Array(vocabularySize),
      reach: new Float64Array(vocabularySize),
      sent: new Uint8Array(vocabularySize),
      stamp: 0,
    };
  }

  /** Campaigns served: those indexed, less those excluded since. */
  get size(): number {
    return this.ranked.count - this.excludedCount;
  }

  /** The campaign as served, or undefined when it is not (never indexed, or excluded). */
  get(id: string): IndexedCampaign | undefined {
    const rank = this.ranked.byId.find(id);
    if (rank === undefined || this.isExcluded(rank)) return undefined;
    return this.campaignAt(rank);
  }

  /**
   * Stops serving a campaign at once (say, its budget ran out): `match` passes over it and
   * `get` no longer finds it. Keyword weights stay as built until the next build.
   * @returns false when the index does not serve it.
   */
  exclude(id: string): boolean {
    const rank = this.ranked.byId.find(id);
    if (rank === undefined || this.isExcluded(rank)) return false;
    this.ranked.facts[rank * FACTS_PER_CAMPAIGN + BID] = EXCLUDED_BID;
    this.excludedCount++;
    return true;
  }

  private isExcluded(rank: number): boolean {
    return this.ranked.facts[rank * FACTS_PER_CAMPAIGN + BID] === EXCLUDED_BID;
  }

  /**
   * The best campaign for the request, or null when none shares a keyword with it and
   * passes targeting. Relevance is the weighted share of the campaign's keywords met
   * (conversation keywords at `CONVERSATION_KEYWORD_FACTOR`); score = relevance × bid;
   * ties go to the higher bid, then the older campaign, then the smaller id.
   *
   * Every candidate holds a sent keyword. Those that also hold a counted conversation
   * keyword are all in the (short: the rarest keywords') lists of those keywords, which
   * are walked in full but for the tail that cannot reach the best score; every other
   * candidate scores on sent keywords alone, and the walk over the sent lists prunes with
   * that tighter bound (MaxScore). Both walks score exactly, so the winner is the same as
   * that of scoring every campaign.
   */
  match(request: MatchRequest): MatchResult | null {
    return this.search(request, null);
  }

  /**
   * The best `limit` campaigns (1–3) that pass the publisher's `controls`, of distinct
   * advertisers, best first: the best campaign, then the best of another advertiser, and so
   * on (one search each). Fewer when fewer advertisers match; none, with the reason, when
   * the controls took every match away. Without controls and with one ad it is `match`.
   */
  select(request: MatchRequest, controls: MatchControls | null, limit = 1): Selection {
    const filter =
      controls === null && limit === 1
        ? null
        : compileFilter(this.ranked, this.keywords, controls ?? {}, limit > 1);
    const results: MatchResult[] = [];
    while (results.length < limit) {
      const result = this.search(request, filter);
      if (result === null) break;
      results.push(result);
      filter?.advertiserCodes.add(this.ranked.advertisers.find(result.campaign.advertiserId)!);
    }
    return { results, unmet: filter === null ? 'no_match' : filter.unmet };
  }

  private search(request: MatchRequest, filter: MatchFilter | null): MatchResult | null {
    const stamp = this.nextStamp();
    let sent = this.markSentKeywords(request.keywords, stamp);
    if (sent.length === 0) return null;
    let conversational = markConversationKeywords(
      this.keywords,
      this.request,
      request.conversation,
      stamp,
    );
    if (filter !== null) {
      sent = filter.withoutBlocked(sent, true);
      if (sent.length === 0) return null;
      conversational = filter.withoutBlocked(conversational, false);
    }
    const search = new Search(this.ranked, this.request, request, filter);
    walkSentLists(this.ranked, this.keywords, search, sent, 0, []);
    if (conversational.length > 0) {
      const { weights } = this.keywords;
      const extra = conversational.reduce(
        (sum, id) => sum + CONVERSATION_KEYWORD_FACTOR * weights[id],
        0,
      );
      walkSentLists(this.ranked, this.keywords, search, sent, extra, conversational);
    }
    if (search.best < 0) return null;
    return {
      campaign: this.campaignAt(search.best),
      relevance: search.bestRelevance,
      score: search.bestScore,
    };
  }

  private campaignAt(rank: number): IndexedCampaign {
    const { ranked } = this;
    const meta = ranked.facts[rank * FACTS_PER_CAMPAIGN + META];
    const targeting = ranked.targetings[Math.floor(meta / TARGETING_UNIT)];
    const end = ranked.facts[(rank + 1) * FACTS_PER_CAMPAIGN + META] % TARGETING_UNIT;
    const keywords: string[] = [];
    for (let at = meta % TARGETING_UNIT; at < end; at++) {
      keywords.push(this.keywords.names[ranked.keywordIds[at]]);
    }
    const input = ranked.inputOf[rank];
    const { strings } = ranked;
    const category = ranked.categoryOf[rank];
    return {
      id: strings.ids.at(input),
      advertiserId: ranked.advertisers.values[ranked.advertiserOf[rank]],
      name: strings.names.at(input),
      text: strings.texts.at(input),
      imageUrl: strings.imageUrls.at(input),
      targetUrl: strings.targetUrls.at(input),
      category: category === NO_CATEGORY ? null : ranked.categories.values[category],
      keywords,
      bidMicros: ranked.facts[rank * FACTS_PER_CAMPAIGN + BID],
      countries: [...targeting.countries],
      devices: [...targeting.devices],
      createdAt: ranked.createdAt[rank],
    };
  }

  private nextStamp(): number {
    const { request } = this;
    if (request.stamp === 0x3fffffff) {
      request.stamps.fill(0);
      request.stamp = 0;
    }
    return ++request.stamp;
  }

  /** The distinct indexed keywords of the request, marked as sent at full weight. */
  private markSentKeywords(keywords: readonly string[], stamp: number): number[] {
    const { stamps, reach, sent } = this.request;
    const ids: number[] = [];
    for (const keyword of keywords) {
      const id = this.keywords.ids.get(keyword);
      if (id === undefined || stamps[id] === stamp) continue;
      stamps[id] = stamp;
      reach[id] = this.keywords.weights[id];
      sent[id] = 1;
      ids.push(id);
    }
    return ids;
  }
}
