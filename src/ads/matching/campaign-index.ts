import type {
  Device,
  IndexedCampaign,
  MatchRequest,
  MatchResult,
} from '@/ads/matching/matching.types';
import { normaliseKeyword, scanWords, searchPhrase, wordHash } from './normalise';
import { matchesTargeting } from './targeting';

/**
 * A campaign keyword that the publisher did not send but that the conversation contains
 * counts with this share of its weight: the publisher's own extraction left it out, so it
 * is weaker evidence of intent, yet it should still lift the campaign that fits the whole
 * conversation above one that fits only the sent keywords.
 */
export const CONVERSATION_KEYWORD_FACTOR = 0.5;

/**
 * At most this many conversation keywords count, the rarest (heaviest) first. Each one adds
 * a posting list that the walk must consider for every candidate, and common keywords have
 * long lists: with several of them in a conversation the match cost grows from ~20 µs to
 * hundreds of µs at 100k–1M campaigns. The rarest keywords are also the ones that say the
 * most about the conversation, so the ranking changes only in the rare case where a campaign
 * would have won on several common conversation keywords at once.
 */
export const MAX_CONVERSATION_KEYWORDS = 3;

/**
 * Only the last this many characters of the conversation are scanned for keywords: the
 * recent turns say the most about what the person wants now, and the scan of a body near
 * the 64 KiB limit would otherwise cost more than the whole match.
 */
export const CONVERSATION_SCAN_CHARS = 4000;

/**
 * Scores this close are a tie. Sums of the same weights taken in a different order differ
 * in the last bits, and such noise must not overrule the documented tie-breaks.
 */
const SCORE_TIE_TOLERANCE = 1e-9;

/** Weight of a keyword: rarer keywords say more about a campaign (inverse document frequency). */
export function keywordWeight(campaignCount: number, campaignsWithKeyword: number): number {
  return Math.log1p(campaignCount / campaignsWithKeyword);
}

const FACTS_PER_CAMPAIGN = 3;
const BID_PER_WEIGHT = 0;
const BID = 1;
const TOTAL_WEIGHT = 2;

/** What the index knows of each campaign, by rank (see `CampaignIndex`). */
interface RankedCampaigns {
  campaigns: IndexedCampaign[];
  /**
   * `FACTS_PER_CAMPAIGN` numbers per rank, side by side so that a campaign costs one
   * cache miss: bid per weight (`bid / totalWeight`, descending along the ranks), bid,
   * total weight.
   */
  facts: Float64Array;
  /** 1 when the campaign targets countries or devices; spares the object look-up otherwise. */
  targeted: Uint8Array;
  maxTotalWeight: number;
  maxKeywordsPerCampaign: number;
}

/** What the index knows of each keyword, by keyword id. */
interface KeywordPostings {
  ids: Map<string, number>;
  /** The keyword of each id. */
  names: string[];
  weights: Float64Array;
  /** Keyword `id` is held by the ranks `postings[postingStart[id] .. postingStart[id + 1])`. */
  postingStart: Int32Array;
  postings: Int32Array;
  /** Phrases of keywords not written as their phrase ("node.js" → "node js"). */
  otherPhrases: Map<string, number[]>;
  /** Leading words of multi-word phrases, so that the conversation scan knows to read on. */
  phrasePrefixes: Set<string>;
  /**
   * A bit per `wordHash` bucket of every word of every phrase: most conversation words
   * hold no keyword, and this dismisses them without making a string or a Map look-up.
   */
  phraseWordFilter: Int32Array;
}

interface Scored {
  rank: number;
  relevance: number;
  score: number;
}

/**
 * An immutable, in-memory index of the servable campaigns, built once from a snapshot.
 *
 * Campaigns are numbered by rank: descending bid per unit of keyword weight
 * (`bid / totalWeight`, ties in the tie-break order). Each keyword's posting list is an
 * ascending Int32Array of ranks, so walking lists visits campaigns from the highest
 * attainable score per unit of matched weight down, and a campaign's score is
 * `bidPerWeight × matchedWeight`: this lets `CandidateWalk` skip most campaigns and stop
 * early. Memory: 4 bytes per (campaign, keyword) pair, 25 bytes per campaign in typed
 * arrays, plus the id and keyword maps (about 145 MiB in all for 1M campaigns holding
 * 5.5M keywords out of 200k).
 */
export class CampaignIndex {
  private constructor(
    private readonly ranked: RankedCampaigns,
    private readonly keywords: KeywordPostings,
    private readonly byId: ReadonlyMap<string, IndexedCampaign>,
  ) {}

  /**
   * Campaigns without keywords, or with a bid that is not a finite non-negative number,
   * can never be served and are left out. Ids are expected to be unique.
   */
  static build(campaigns: readonly IndexedCampaign[]): CampaignIndex {
    const servable = campaigns.filter(isServable);
    const vocabulary = new Map<string, number>();
    const keywordsOf = internKeywords(servable, vocabulary);
    const weights = weighKeywords(keywordsOf.keywords, vocabulary.size, servable.length);
    const totals = sumWeights(keywordsOf, weights);
    const order = rankOrder(servable, totals);
    const { postingStart, postings } = buildPostings(keywordsOf, order, vocabulary.size);
    return new CampaignIndex(
      rankCampaigns(servable, totals, order, keywordsOf),
      {
        ids: vocabulary,
        names: [...vocabulary.keys()],
        weights,
        postingStart,
        postings,
        ...indexPhrases(vocabulary),
      },
      new Map(servable.map((campaign) => [campaign.id, campaign])),
    );
  }

  get size(): number {
    return this.ranked.campaigns.length;
  }

  get(id: string): IndexedCampaign | undefined {
    return this.byId.get(id);
  }

  /**
   * The best campaign for the request, or null when none shares a keyword with it and
   * passes targeting. Relevance is the weighted share of the campaign's keywords met
   * (conversation keywords at `CONVERSATION_KEYWORD_FACTOR`); score = relevance × bid;
   * ties go to the higher bid, then the older campaign, then the smaller id.
   */
  match(request: MatchRequest): MatchResult | null {
    const seen = new Set<number>();
    const sent = this.sentKeywords(request.keywords, seen);
    if (sent.length === 0) return null;
    const conversational = this.conversationKeywords(request.conversation, seen);
    const lists = [
      ...sent.map((id) => this.openPostingList(id, 1, true)),
      ...conversational.map((id) => this.openPostingList(id, CONVERSATION_KEYWORD_FACTOR, false)),
    ];
    const winner = this.findWinner(lists, request.country, request.device);
    if (winner === null) return null;
    const { rank, relevance, score } = winner;
    return { campaign: this.ranked.campaigns[rank], relevance, score };
  }

  /** The distinct indexed keywords of the request. */
  private sentKeywords(keywords: readonly string[], seen: Set<number>): number[] {
    const ids: number[] = [];
    for (const keyword of keywords) {
      const id = this.keywords.ids.get(keyword);
      if (id === undefined || seen.has(id)) continue;
      seen.add(id);
      ids.push(id);
    }
    return ids;
  }

  /**
   * Indexed keywords found as whole words in the conversation and not sent. One pass
   * over its words: a look-up per word that may belong to a keyword, a few more only
   * inside a multi-word phrase.
   */
  private conversationKeywords(conversation: string, seen: Set<number>): number[] {
    const found: number[] = [];
    if (conversation === '') return found;
    const { ids, otherPhrases, phrasePrefixes, phraseWordFilter } = this.keywords;
    const recent =
      conversation.length > CONVERSATION_SCAN_CHARS
        ? conversation.slice(conversation.length - CONVERSATION_SCAN_CHARS)
        : conversation;
    // Null stands for words no keyword holds: no phrase runs across them.
    const words: (string | null)[] = [];
    scanWords(recent, (folded, start, end, hash) => {
      if (filterHas(phraseWordFilter, hash)) words.push(folded.slice(start, end));
      else if (words.length > 0 && words[words.length - 1] !== null) words.push(null);
    });
    const note = (id: number | undefined): void => {
      if (id === undefined || seen.has(id)) return;
      seen.add(id);
      found.push(id);
    };
    const notePhrase = (phrase: string): void => {
      note(ids.get(phrase));
      if (otherPhrases.size > 0) otherPhrases.get(phrase)?.forEach(note);
    };
    for (let first = 0; first < words.length; first++) {
      let phrase = words[first];
      if (phrase === null) continue;
      notePhrase(phrase);
      for (let next = first + 1; next < words.length && phrasePrefixes.has(phrase); next++) {
        const word = words[next];
        if (word === null) break;
        phrase = `${phrase} ${word}`;
        notePhrase(phrase);
      }
    }
    if (found.length <= MAX_CONVERSATION_KEYWORDS) return found;
    const { weights, names } = this.keywords;
    return found
      .sort((a, b) => weights[b] - weights[a] || (names[a] < names[b] ? -1 : 1))
      .slice(0, MAX_CONVERSATION_KEYWORDS);
  }

  private openPostingList(keywordId: number, factor: number, sent: boolean): PostingList {
    const { postingStart, postings, weights } = this.keywords;
    const end = postingStart[keywordId + 1];
    return {
      cursor: postingStart[keywordId],
      end,
      length: end - postingStart[keywordId],
      lastRank: postings[end - 1],
      reach: factor * weights[keywordId],
      sent,
    };
  }

  /** Follows the walk in rank order, keeping the best campaign seen. */
  private findWinner(
    lists: PostingList[],
    country: string | null,
    device: Device | null,
  ): Scored | null {
    const { facts, maxTotalWeight, campaigns } = this.ranked;
    const walk = new CandidateWalk(
      this.keywords.postings,
      lists,
      this.ranked.maxKeywordsPerCampaign,
    );
    let best: Scored | null = null;
    let threshold = 0;
    for (let rank = 0; rank < campaigns.length;) {
      const ceiling = facts[rank * FACTS_PER_CAMPAIGN + BID_PER_WEIGHT];
      if (ceiling * maxTotalWeight < threshold) break;
      const next = walk.next(rank, ceiling, threshold);
      if (next < 0) break;
      rank = next + 1;
      const at = next * FACTS_PER_CAMPAIGN;
      const bid = facts[at + BID];
      // Relevance is at most 1: a bid below the threshold cannot win, whatever it matches.
      if (bid < threshold) continue;
      const weight = walk.matchedWeight(next, facts[at + BID_PER_WEIGHT], threshold);
      if (weight === 0 || !this.passesTargeting(next, country, device)) continue;
      const relevance = Math.min(1, weight / facts[at + TOTAL_WEIGHT]);
      const scored = { rank: next, relevance, score: relevance * bid };
      if (best !== null && !this.outranks(scored, best)) continue;
      best = scored;
      // Not the best score itself: an equal score must still be visited for the tie-breaks.
      threshold = best.score * (1 - 2 * SCORE_TIE_TOLERANCE);
    }
    return best;
  }

  private passesTargeting(rank: number, country: string | null, device: Device | null): boolean {
    const { targeted, campaigns } = this.ranked;
    return targeted[rank] === 0 || matchesTargeting(campaigns[rank], country, device);
  }

  private outranks(challenger: Scored, holder: Scored): boolean {
    const tolerance = SCORE_TIE_TOLERANCE * Math.max(challenger.score, holder.score);
    if (Math.abs(challenger.score - holder.score) > tolerance) {
      return challenger.score > holder.score;
    }
    const { campaigns } = this.ranked;
    return compareTieBreak(campaigns[challenger.rank], campaigns[holder.rank]) < 0;
  }
}

// ---------------------------------------------------------------------------------------
// The walk over posting lists (MaxScore)
// ---------------------------------------------------------------------------------------

/** A keyword's posting list during one match. */
interface PostingList {
  /** Position in `postings` of the first campaign not yet passed. */
  cursor: number;
  end: number;
  length: number;
  lastRank: number;
  /** The weight this keyword adds to a campaign holding it: halved for a conversation keyword. */
  reach: number;
  /** Sent by the publisher: only campaigns in such a list are candidates. */
  sent: boolean;
}

/**
 * MaxScore over the rank-ordered posting lists of the sent and the conversation keywords.
 *
 * No campaign from a rank on has a bid per weight above that rank's (the ceiling), and a
 * campaign holds at most `maxKeywordsPerCampaign` keywords. So a campaign found only in
 * lists whose heaviest reaches add up to less than `threshold / ceiling` cannot win:
 * those lists (the lightest, i.e. the most common keywords, i.e. the longest lists) need
 * not be walked. A winner must appear both in a sent list and in one of the remaining
 * "essential" lists, so the walk merges (with a small heap) whichever of the two groups
 * has fewer postings. For each campaign it yields, the other lists are probed by
 * galloping search, sent ones first, then the heaviest first, and probing stops as soon
 * as the campaign can no longer be a candidate or reach the threshold: most campaigns are
 * dismissed having read only their bid and a few postings near the lists' cursors.
 */
class CandidateWalk {
  /** Lists that still hold a campaign at or after the current rank, lightest first. */
  private live: PostingList[] = [];
  /** `reachBelow[i]`: summed reach of `live[0 .. i)`. */
  private reachBelow = new Float64Array(1);
  /** `postingsFrom[i]`: summed length of `live[i ..]`. */
  private postingsFrom = new Float64Array(1);
  private sentPostings = 0;
  private earliestLastRank = -1;
  private firstEssential = 0;
  /** The lists being merged, a min-heap by the rank at their cursor. */
  private walked: PostingList[] = [];
  private walkedFrom = -1;
  /**
   * The other live lists, sent ones first, then heaviest first, with the summed reach and
   * the number of sent lists from each on.
   */
  private probed: PostingList[] = [];
  private probedReachFrom = new Float64Array(1);
  private probedSentFrom = new Int32Array(1);

  constructor(
    private readonly postings: Int32Array,
    private readonly lists: readonly PostingList[],
    /** No campaign holds more keywords, so none is in more lists. */
    private readonly maxKeywordsPerCampaign: number,
  ) {
    this.keepLiveFrom(0);
  }

  /**
   * The first rank at or after `rank` that may still beat `threshold`, given that no
   * campaign from `rank` on has a bid per weight above `ceiling`; -1 when none can.
   */
  next(rank: number, ceiling: number, threshold: number): number {
    if (rank > this.earliestLastRank) this.keepLiveFrom(rank);
    if (this.sentPostings === 0) return -1;
    const first = this.skipLightLists(ceiling, threshold);
    if (first === this.live.length) return -1;
    if (this.walkedFrom !== first) this.walkFrom(first, rank);
    return this.advanceWalked(rank);
  }

  /**
   * The weight the campaign at `rank` (just returned by `next`) matches, or 0 when it
   * holds no sent keyword or cannot reach `threshold`.
   */
  matchedWeight(rank: number, bidPerWeight: number, threshold: number): number {
    const { postings, probed, probedReachFrom, probedSentFrom } = this;
    let weight = 0;
    let candidate = false;
    const { walked } = this;
    for (let index = 0; index < walked.length; index++) {
      const list = walked[index];
      if (postings[list.cursor] !== rank) continue;
      weight += list.reach;
      candidate ||= list.sent;
    }
    for (let index = 0; index < probed.length; index++) {
      if (bidPerWeight * (weight + probedReachFrom[index]) < threshold) return 0;
      if (!candidate && probedSentFrom[index] === 0) return 0;
      const list = probed[index];
      list.cursor = seek(postings, list.cursor, list.end, rank);
      if (list.cursor < list.end && postings[list.cursor] === rank) {
        weight += list.reach;
        candidate ||= list.sent;
      }
    }
    return candidate ? weight : 0;
  }

  /**
   * Moves lists to the skipped side while a campaign found only there could not reach
   * the threshold: its score is at most the ceiling times the heaviest reaches it could
   * collect there.
   */
  private skipLightLists(ceiling: number, threshold: number): number {
    const { live, reachBelow } = this;
    const most = this.maxKeywordsPerCampaign;
    let first = this.firstEssential;
    while (first < live.length) {
      const heaviest = reachBelow[first + 1] - reachBelow[Math.max(0, first + 1 - most)];
      if (ceiling * heaviest >= threshold) break;
      first++;
    }
    this.firstEssential = first;
    return first;
  }

  /** Drops the lists that end before `rank` and recomputes the sums. */
  private keepLiveFrom(rank: number): void {
    this.live = this.lists
      .filter((list) => list.lastRank >= rank)
      .sort((a, b) => a.reach - b.reach);
    const count = this.live.length;
    this.reachBelow = new Float64Array(count + 1);
    this.postingsFrom = new Float64Array(count + 1);
    this.sentPostings = 0;
    this.earliestLastRank = Number.MAX_SAFE_INTEGER;
    this.live.forEach((list, index) => {
      this.reachBelow[index + 1] = this.reachBelow[index] + list.reach;
      if (list.sent) this.sentPostings += list.length;
      this.earliestLastRank = Math.min(this.earliestLastRank, list.lastRank);
    });
    for (let index = count - 1; index >= 0; index--) {
      this.postingsFrom[index] = this.postingsFrom[index + 1] + this.live[index].length;
    }
    this.firstEssential = 0;
    this.walkedFrom = -1;
  }

  /** Chooses the lists to merge (essential or sent, the fewer postings); the rest are probed. */
  private walkFrom(firstEssential: number, rank: number): void {
    const mergesEssential = this.postingsFrom[firstEssential] <= this.sentPostings;
    const merged = (list: PostingList, index: number) =>
      mergesEssential ? index >= firstEssential : list.sent;
    this.walked = [];
    this.probed = [];
    this.live.forEach((list, index) => {
      if (!merged(list, index)) {
        this.probed.unshift(list);
        return;
      }
      list.cursor = seek(this.postings, list.cursor, list.end, rank);
      if (list.cursor < list.end) this.walked.push(list);
    });
    for (let node = (this.walked.length >> 1) - 1; node >= 0; node--) this.siftDown(node);
    // Sent lists first: a campaign in none of them is no candidate, which settles it cheaply.
    this.probed.sort((a, b) => Number(b.sent) - Number(a.sent));
    this.probedReachFrom = new Float64Array(this.probed.length + 1);
    this.probedSentFrom = new Int32Array(this.probed.length + 1);
    for (let index = this.probed.length - 1; index >= 0; index--) {
      const list = this.probed[index];
      this.probedReachFrom[index] = this.probedReachFrom[index + 1] + list.reach;
      this.probedSentFrom[index] = this.probedSentFrom[index + 1] + (list.sent ? 1 : 0);
    }
    this.walkedFrom = firstEssential;
  }

  /** Moves every merged list to `rank` or beyond; the smallest rank left, or -1. */
  private advanceWalked(rank: number): number {
    const { walked, postings } = this;
    while (walked.length > 0 && postings[walked[0].cursor] < rank) {
      const list = walked[0];
      list.cursor = seek(postings, list.cursor + 1, list.end, rank);
      if (list.cursor === list.end) {
        const last = walked.pop() as PostingList;
        if (walked.length === 0) break;
        walked[0] = last;
      }
      this.siftDown(0);
    }
    return walked.length === 0 ? -1 : postings[walked[0].cursor];
  }

  private siftDown(start: number): void {
    const { walked, postings } = this;
    const list = walked[start];
    const head = postings[list.cursor];
    let node = start;
    for (;;) {
      let child = 2 * node + 1;
      if (child >= walked.length) break;
      if (
        child + 1 < walked.length &&
        postings[walked[child + 1].cursor] < postings[walked[child].cursor]
      ) {
        child++;
      }
      if (postings[walked[child].cursor] >= head) break;
      walked[node] = walked[child];
      node = child;
    }
    walked[node] = list;
  }
}

/** The first position from `cursor` whose rank is at least `rank` (galloping search). */
function seek(postings: Int32Array, cursor: number, end: number, rank: number): number {
  if (cursor >= end || postings[cursor] >= rank) return cursor;
  let below = cursor;
  let step = 1;
  let probe = cursor + 1;
  while (probe < end && postings[probe] < rank) {
    below = probe;
    step *= 2;
    probe = cursor + step;
  }
  let low = below + 1;
  let high = Math.min(probe, end);
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (postings[middle] < rank) low = middle + 1;
    else high = middle;
  }
  return low;
}

// ---------------------------------------------------------------------------------------
// Build steps
// ---------------------------------------------------------------------------------------

/** Keyword ids per campaign, flattened: campaign i owns `keywords[start[i] .. start[i+1])`. */
interface CampaignKeywords {
  start: Int32Array;
  keywords: Int32Array;
}

function isServable(campaign: IndexedCampaign): boolean {
  return (
    campaign.keywords.length > 0 && Number.isFinite(campaign.bidMicros) && campaign.bidMicros >= 0
  );
}

/** Normalises again, defensively: a keyword counted twice would skew the campaign's total. */
function internKeywords(
  campaigns: readonly IndexedCampaign[],
  vocabulary: Map<string, number>,
): CampaignKeywords {
  const start = new Int32Array(campaigns.length + 1);
  const keywords: number[] = [];
  campaigns.forEach((campaign, index) => {
    start[index] = keywords.length;
    for (const raw of campaign.keywords) {
      const keyword = normaliseKeyword(raw);
      if (keyword === '') continue;
      let id = vocabulary.get(keyword);
      if (id === undefined) {
        id = vocabulary.size;
        vocabulary.set(keyword, id);
      }
      if (!keywords.includes(id, start[index])) keywords.push(id);
    }
  });
  start[campaigns.length] = keywords.length;
  return { start, keywords: Int32Array.from(keywords) };
}

function weighKeywords(
  keywords: Int32Array,
  vocabularySize: number,
  campaignCount: number,
): Float64Array {
  const documentFrequency = new Int32Array(vocabularySize);
  for (const id of keywords) documentFrequency[id]++;
  return Float64Array.from(documentFrequency, (frequency) =>
    keywordWeight(campaignCount, frequency),
  );
}

function sumWeights({ start, keywords }: CampaignKeywords, weights: Float64Array): Float64Array {
  const totals = new Float64Array(start.length - 1);
  for (let campaign = 0; campaign < totals.length; campaign++) {
    for (let at = start[campaign]; at < start[campaign + 1]; at++) {
      totals[campaign] += weights[keywords[at]];
    }
  }
  return totals;
}

/** Input positions in rank order: bid per unit of keyword weight first, then the tie-breaks. */
function rankOrder(campaigns: readonly IndexedCampaign[], totals: Float64Array): Int32Array {
  const bidPerWeight = Float64Array.from(campaigns, (campaign, index) =>
    bidPerUnitWeight(campaign.bidMicros, totals[index]),
  );
  const order = Array.from({ length: campaigns.length }, (_, index) => index);
  order.sort(
    (a, b) => bidPerWeight[b] - bidPerWeight[a] || compareTieBreak(campaigns[a], campaigns[b]),
  );
  return Int32Array.from(order);
}

/** A campaign whose keywords all normalise to nothing has no weight and no posting. */
function bidPerUnitWeight(bid: number, totalWeight: number): number {
  return totalWeight > 0 ? bid / totalWeight : 0;
}

/** Negative when `a` wins a tie: higher bid, then older, then smaller id. */
function compareTieBreak(a: IndexedCampaign, b: IndexedCampaign): number {
  if (a.bidMicros !== b.bidMicros) return b.bidMicros - a.bidMicros;
  if (a.createdAt !== b.createdAt) return a.createdAt - b.createdAt;
  if (a.id === b.id) return 0;
  return a.id < b.id ? -1 : 1;
}

function rankCampaigns(
  servable: readonly IndexedCampaign[],
  totals: Float64Array,
  order: Int32Array,
  keywordsOf: CampaignKeywords,
): RankedCampaigns {
  const count = order.length;
  const ranked: RankedCampaigns = {
    campaigns: new Array<IndexedCampaign>(count),
    facts: new Float64Array(count * FACTS_PER_CAMPAIGN),
    targeted: new Uint8Array(count),
    maxTotalWeight: 0,
    maxKeywordsPerCampaign: 0,
  };
  order.forEach((input, rank) => {
    const campaign = servable[input];
    ranked.campaigns[rank] = campaign;
    const at = rank * FACTS_PER_CAMPAIGN;
    ranked.facts[at + BID_PER_WEIGHT] = bidPerUnitWeight(campaign.bidMicros, totals[input]);
    ranked.facts[at + BID] = campaign.bidMicros;
    ranked.facts[at + TOTAL_WEIGHT] = totals[input];
    ranked.targeted[rank] = campaign.countries.length > 0 || campaign.devices.length > 0 ? 1 : 0;
    ranked.maxTotalWeight = Math.max(ranked.maxTotalWeight, totals[input]);
    const keywordCount = keywordsOf.start[input + 1] - keywordsOf.start[input];
    ranked.maxKeywordsPerCampaign = Math.max(ranked.maxKeywordsPerCampaign, keywordCount);
  });
  return ranked;
}

/** Filling the lists in rank order leaves each one sorted: no sort needed. */
function buildPostings(
  { start, keywords }: CampaignKeywords,
  order: Int32Array,
  vocabularySize: number,
): { postingStart: Int32Array; postings: Int32Array } {
  const postingStart = new Int32Array(vocabularySize + 1);
  for (const id of keywords) postingStart[id + 1]++;
  for (let id = 0; id < vocabularySize; id++) postingStart[id + 1] += postingStart[id];
  const fill = postingStart.slice(0, vocabularySize);
  const postings = new Int32Array(keywords.length);
  order.forEach((input, rank) => {
    for (let at = start[input]; at < start[input + 1]; at++) postings[fill[keywords[at]]++] = rank;
  });
  return { postingStart, postings };
}

function indexPhrases(
  vocabulary: ReadonlyMap<string, number>,
): Pick<KeywordPostings, 'otherPhrases' | 'phrasePrefixes' | 'phraseWordFilter'> {
  const otherPhrases = new Map<string, number[]>();
  const phrasePrefixes = new Set<string>();
  const phraseWords = new Set<string>();
  for (const [keyword, id] of vocabulary) {
    const phrase = searchPhrase(keyword);
    if (phrase === '') continue;
    if (phrase !== keyword) {
      const ids = otherPhrases.get(phrase);
      if (ids === undefined) otherPhrases.set(phrase, [id]);
      else ids.push(id);
    }
    for (let space = phrase.indexOf(' '); space >= 0; space = phrase.indexOf(' ', space + 1)) {
      phrasePrefixes.add(phrase.slice(0, space));
    }
    for (const word of phrase.split(' ')) phraseWords.add(word);
  }
  return { otherPhrases, phrasePrefixes, phraseWordFilter: buildWordFilter(phraseWords) };
}

/** About 16 bits per word: roughly one word in 16 that holds no keyword gets through. */
function buildWordFilter(words: ReadonlySet<string>): Int32Array {
  let buckets = 32;
  while (buckets < Math.min(words.size * 16, 2 ** 28)) buckets *= 2;
  const filter = new Int32Array(buckets / 32);
  for (const word of words) {
    const hash = wordHash(word);
    filter[(hash >>> 5) & (filter.length - 1)] |= 1 << (hash & 31);
  }
  return filter;
}

function filterHas(filter: Int32Array, hash: number): boolean {
  return (filter[(hash >>> 5) & (filter.length - 1)] & (1 << (hash & 31))) !== 0;
}
