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
 * a posting list whose campaigns must be scored with it, and common keywords have long
 * lists. The rarest keywords are also the ones that say the most about the conversation,
 * so the ranking changes only in the rare case where a campaign would have won on several
 * common conversation keywords at once.
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

const FACTS_PER_CAMPAIGN = 4;
const BID_PER_WEIGHT = 0;
const BID = 1;
const TOTAL_WEIGHT = 2;
/** Where the campaign's keywords start in `keywordIds`, plus its targeting id × `TARGETING_UNIT`. */
const META = 3;
const TARGETING_UNIT = 2 ** 32;
/** A bid no campaign has: marks an excluded campaign, which no threshold lets through. */
const EXCLUDED_BID = -1;

/** Countries and devices a campaign targets; entry 0 of `targetings` targets everyone. */
type Targeting = Pick<IndexedCampaign, 'countries' | 'devices'>;

/**
 * The render strings of the campaigns, in the order they were added (`inputOf` maps a rank
 * to that position): UTF-8 in byte buffers, outside the traced heap (see `StringColumn`).
 */
interface CampaignStrings {
  ids: StringColumn;
  names: StringColumn;
  texts: StringColumn;
  imageUrls: StringColumn<string | null>;
  targetUrls: StringColumn;
}

/**
 * What the index knows of each campaign, by rank (see `CampaignIndex`): no object per
 * campaign and no string, only typed arrays and byte buffers, so that a million campaigns
 * add nothing for the garbage collector to trace.
 */
interface RankedCampaigns {
  count: number;
  /** The position at which the campaign of each rank was added: its row in `strings`. */
  inputOf: Int32Array;
  strings: CampaignStrings;
  /**
   * `FACTS_PER_CAMPAIGN` numbers per rank (and one rank more, whose `META` ends the last
   * campaign's keywords), side by side so that scoring a campaign costs one cache miss:
   * bid per weight (`bid / totalWeight`, descending along the ranks), bid (`EXCLUDED_BID`
   * once excluded), total weight, and `META`: the start of its keywords in `keywordIds`
   * plus `TARGETING_UNIT` × its index into `targetings` (0: it targets everyone).
   */
  facts: Float64Array;
  targetings: Targeting[];
  /** Epoch milliseconds by rank, for the tie-breaks. */
  createdAt: Float64Array;
  keywordIds: Int32Array;
  byId: IdTable;
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

/**
 * The keywords of the request being matched, by keyword id: a keyword counts for this
 * request when `stamps[id]` holds the request's stamp. Reused from request to request, so
 * marking a keyword costs one write and no request allocates an array the vocabulary's size.
 */
interface RequestKeywords {
  stamps: Int32Array;
  /** The weight the keyword adds to a campaign holding it: halved for a conversation keyword. */
  reach: Float64Array;
  /** 1 when the publisher sent it: only campaigns holding a sent keyword are candidates. */
  sent: Uint8Array;
  stamp: number;
}

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
 * Memory: 8 bytes per (campaign, keyword) pair, about 100 bytes per campaign in typed
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

  /**
   * Campaigns without keywords, or with a bid that is not a finite non-negative number,
   * can never be served and are left out. Ids are expected to be unique.
   */
  static build(campaigns: readonly IndexedCampaign[]): CampaignIndex {
    const builder = new CampaignIndexBuilder();
    for (const campaign of campaigns) builder.add(campaign);
    return builder.build();
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
    const stamp = this.nextStamp();
    const sent = this.markSentKeywords(request.keywords, stamp);
    if (sent.length === 0) return null;
    const conversational = this.markConversationKeywords(request.conversation, stamp);
    const search = new Search(this.ranked, this.request, request);
    this.walkSentLists(search, sent, 0, []);
    if (conversational.length > 0) {
      const { weights } = this.keywords;
      const extra = conversational.reduce(
        (sum, id) => sum + CONVERSATION_KEYWORD_FACTOR * weights[id],
        0,
      );
      this.walkSentLists(search, sent, extra, conversational);
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
    return {
      id: strings.ids.at(input),
      name: strings.names.at(input),
      text: strings.texts.at(input),
      imageUrl: strings.imageUrls.at(input),
      targetUrl: strings.targetUrls.at(input),
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

  /**
   * Indexed keywords found as whole words in the conversation and not sent; the
   * `MAX_CONVERSATION_KEYWORDS` heaviest are marked at `CONVERSATION_KEYWORD_FACTOR`, the
   * others at no weight. One pass over its words: a look-up per word that may belong to a
   * keyword, a few more only inside a multi-word phrase.
   */
  private markConversationKeywords(conversation: string, stamp: number): number[] {
    const found: number[] = [];
    if (conversation === '') return found;
    const { ids, otherPhrases, phrasePrefixes, phraseWordFilter, weights, names } = this.keywords;
    const { stamps, reach, sent } = this.request;
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
      if (id === undefined || stamps[id] === stamp) return;
      stamps[id] = stamp;
      reach[id] = 0;
      sent[id] = 0;
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
    const counted =
      found.length <= MAX_CONVERSATION_KEYWORDS
        ? found
        : found
            .sort((a, b) => weights[b] - weights[a] || (names[a] < names[b] ? -1 : 1))
            .slice(0, MAX_CONVERSATION_KEYWORDS);
    for (const id of counted) reach[id] = CONVERSATION_KEYWORD_FACTOR * weights[id];
    return counted;
  }

  /**
   * MaxScore over the rank-ordered lists of the sent keywords, run twice.
   *
   * First for the candidates that hold no counted conversation keyword, which match at
   * most the sent weights (`extra` 0); then only for those that hold one (`within`: the
   * conversation keywords' lists, whose campaigns may add up to `extra`, the counted
   * conversation weights together). Every candidate is scored exactly, from its own
   * keywords, so a campaign met in both walks is simply met twice.
   *
   * No campaign from a rank on has a bid per weight above that rank's (the ceiling), and
   * none holds more than `maxKeywordsPerCampaign` keywords: a campaign found only in sent
   * lists whose heaviest reaches (plus `extra`) add up to less than `threshold / ceiling`
   * cannot win, so those lists (the lightest, i.e. the most common keywords, i.e. the
   * longest lists) are not walked. The others ("essential") are merged; with `within`,
   * the merged sent lists and the merged `within` lists leapfrog (each side jumps to the
   * other's next campaign by galloping search), so the longer side is mostly skipped.
   */
  private walkSentLists(search: Search, sent: number[], extra: number, within: number[]): void {
    const { postingStart, postings, weights } = this.keywords;
    const { facts, count, maxTotalWeight, maxKeywordsPerCampaign: most } = this.ranked;
    // Lightest first.
    const order = [...sent].sort((a, b) => weights[a] - weights[b]);
    const lists = order.length;
    const cursors = order.map((id) => postingStart[id]);
    const ends = order.map((id) => postingStart[id + 1]);
    const reachBelow = [0];
    for (let list = 0; list < lists; list++) {
      reachBelow.push(reachBelow[list] + weights[order[list]]);
    }
    const heaviest = (top: number) => extra + reachBelow[top] - reachBelow[Math.max(0, top - most)];
    const bound = Math.min(maxTotalWeight, heaviest(lists));
    const filtered = within.length > 0;
    const withinCursors = within.map((id) => postingStart[id]);
    const withinEnds = within.map((id) => postingStart[id + 1]);
    let firstEssential = 0;
    let rank = 0;
    while (rank < count) {
      const ceiling = facts[rank * FACTS_PER_CAMPAIGN + BID_PER_WEIGHT];
      const threshold = search.threshold;
      if (ceiling * bound < threshold) return;
      while (firstEssential < lists && ceiling * heaviest(firstEssential + 1) < threshold) {
        firstEssential++;
      }
      let next = count;
      for (let list = firstEssential; list < lists; list++) {
        const cursor = seek(postings, cursors[list], ends[list], rank);
        cursors[list] = cursor;
        if (cursor < ends[list] && postings[cursor] < next) next = postings[cursor];
      }
      if (next === count) return;
      if (filtered) {
        let nextWithin = count;
        for (let list = 0; list < within.length; list++) {
          const cursor = seek(postings, withinCursors[list], withinEnds[list], next);
          withinCursors[list] = cursor;
          if (cursor < withinEnds[list] && postings[cursor] < nextWithin) {
            nextWithin = postings[cursor];
          }
        }
        if (nextWithin === count) return;
        if (nextWithin !== next) {
          rank = nextWithin;
          continue;
        }
      }
      search.consider(next);
      rank = next + 1;
    }
  }
}

/** The best campaign of one match so far, and the score a campaign must reach to beat it. */
class Search {
  best = -1;
  bestScore = 0;
  bestRelevance = 0;
  /** Not the best score itself: an equal score must still be considered for the tie-breaks. */
  threshold = 0;

  constructor(
    private readonly ranked: RankedCampaigns,
    private readonly keywords: RequestKeywords,
    private readonly request: MatchRequest,
  ) {}

  /** Scores the campaign at `rank` and keeps it when it beats the best. */
  consider(rank: number): void {
    const { facts } = this.ranked;
    const at = rank * FACTS_PER_CAMPAIGN;
    const bid = facts[at + BID];
    // Relevance is at most 1: a bid below the threshold cannot win, whatever it matches.
    // An excluded campaign's bid is below every threshold.
    if (bid < this.threshold) return;
    const meta = facts[at + META];
    const weight = this.matchedWeight(
      meta % TARGETING_UNIT,
      facts[at + FACTS_PER_CAMPAIGN + META] % TARGETING_UNIT,
    );
    if (weight <= 0) return;
    if (
      meta >= TARGETING_UNIT &&
      !matchesTargeting(
        this.ranked.targetings[Math.floor(meta / TARGETING_UNIT)],
        this.request.country,
        this.request.device,
      )
    ) {
      return;
    }
    const relevance = Math.min(1, weight / facts[at + TOTAL_WEIGHT]);
    const score = relevance * bid;
    if (this.best >= 0 && !this.outranks(rank, score)) return;
    this.best = rank;
    this.bestScore = score;
    this.bestRelevance = relevance;
    this.threshold = score * (1 - 2 * SCORE_TIE_TOLERANCE);
  }

  /**
   * The weight of the request's keywords among a campaign's (`keywordIds[start .. end)`);
   * 0 when it holds no sent one.
   */
  private matchedWeight(start: number, end: number): number {
    const { keywordIds } = this.ranked;
    const { stamps, reach, sent, stamp } = this.keywords;
    let weight = 0;
    let candidate = 0;
    for (let at = start; at < end; at++) {
      const id = keywordIds[at];
      if (stamps[id] !== stamp) continue;
      weight += reach[id];
      candidate |= sent[id];
    }
    return candidate === 1 ? weight : 0;
  }

  private outranks(rank: number, score: number): boolean {
    const tolerance = SCORE_TIE_TOLERANCE * Math.max(score, this.bestScore);
    if (Math.abs(score - this.bestScore) > tolerance) return score > this.bestScore;
    return compareRanksTieBreak(this.ranked, rank, this.best) < 0;
  }
}

/** Negative when the campaign at rank `a` wins a tie: higher bid, then older, then smaller id. */
function compareRanksTieBreak(ranked: RankedCampaigns, a: number, b: number): number {
  const { facts, createdAt, inputOf, strings } = ranked;
  const bidA = facts[a * FACTS_PER_CAMPAIGN + BID];
  const bidB = facts[b * FACTS_PER_CAMPAIGN + BID];
  if (bidA !== bidB) return bidB - bidA;
  if (createdAt[a] !== createdAt[b]) return createdAt[a] - createdAt[b];
  return strings.ids.compare(inputOf[a], inputOf[b]);
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
// Strings and ids outside the traced heap
// ---------------------------------------------------------------------------------------

/** Bytes copied between two chances for `buildInSlices` to give the event loop a turn. */
const BYTES_PER_YIELD = 1 << 20;

/**
 * Strings appended one by one and read back by row, kept as UTF-8 in one byte buffer with
 * their end offsets in a Uint32Array. A million campaigns' strings as JS strings are
 * millions of heap objects, each traced by every major GC; here they are two buffers the
 * GC never looks into. Reading a row decodes it: done only for the few rows a request
 * returns. Both arrays grow by doubling while rows are added; `compact` trims them.
 * Lone UTF-16 surrogates, which no stored campaign holds, would read back as U+FFFD.
 */
class StringColumn<T extends string | null = string> {
  private bytes = Buffer.allocUnsafeSlow(1024);
  /** Row `i` is `bytes[ends[i - 1] .. ends[i])`, with `ends[-1]` taken as 0. */
  private ends = new Uint32Array(64);
  /** One byte per row, 1 for null; left empty while no row is null. */
  private nulls = new Uint8Array(0);
  private rows = 0;
  private used = 0;

  push(value: T): void {
    if (this.rows === this.ends.length) {
      const ends = new Uint32Array(Math.max(64, 2 * this.rows));
      ends.set(this.ends);
      this.ends = ends;
    }
    if (value === null) {
      if (this.nulls.length <= this.rows) {
        const nulls = new Uint8Array(this.ends.length);
        nulls.set(this.nulls);
        this.nulls = nulls;
      }
      this.nulls[this.rows] = 1;
    } else {
      // A UTF-16 code unit takes at most 3 bytes of UTF-8.
      const most = this.used + 3 * value.length;
      if (most > this.bytes.length) {
        let size = Math.max(1024, 2 * this.bytes.length);
        while (size < most) size *= 2;
        const bytes = Buffer.allocUnsafeSlow(size);
        this.bytes.copy(bytes, 0, 0, this.used);
        this.bytes = bytes;
      }
      this.used += this.bytes.write(value, this.used, 'utf8');
    }
    this.ends[this.rows++] = this.used;
  }

  at(row: number): T {
    if (this.nulls[row] === 1) return null as T;
    return this.bytes.toString('utf8', this.start(row), this.ends[row]) as T;
  }

  /** Whether the row holds `value`, compared in place while it is ASCII. */
  holds(row: number, value: string): boolean {
    const end = this.ends[row];
    let at = this.start(row);
    // UTF-8 takes at least a byte per UTF-16 code unit.
    if (this.nulls[row] === 1 || end - at < value.length) return false;
    for (let unit = 0; unit < value.length; unit++, at++) {
      const code = value.charCodeAt(unit);
      if (code >= 0x80) return this.at(row) === value;
      if (this.bytes[at] !== code) return false;
    }
    return at === end;
  }

  /** Whether the two rows hold the same string (null equals null). */
  equals(a: number, b: number): boolean {
    if ((this.nulls[a] === 1) !== (this.nulls[b] === 1)) return false;
    const start = this.start(a);
    const length = this.ends[a] - start;
    if (this.ends[b] - this.start(b) !== length) return false;
    return this.bytes.compare(this.bytes, this.start(b), this.ends[b], start, this.ends[a]) === 0;
  }

  /**
   * The two rows' strings in JavaScript's order (`<`, by UTF-16 code unit), without
   * decoding them unless they first differ outside ASCII: UTF-8 bytes sort by code point,
   * which departs from that order only beyond the Basic Multilingual Plane.
   */
  compare(a: number, b: number): number {
    const { bytes } = this;
    const endA = this.ends[a];
    const endB = this.ends[b];
    let atA = this.start(a);
    let atB = this.start(b);
    for (; atA < endA && atB < endB; atA++, atB++) {
      const byteA = bytes[atA];
      const byteB = bytes[atB];
      if (byteA === byteB) continue;
      if (byteA < 0x80 || byteB < 0x80) return byteA - byteB;
      return (this.at(a) as string) < (this.at(b) as string) ? -1 : 1;
    }
    return endA - atA - (endB - atB);
  }

  /** Trims the buffers to what the rows use, copying in steps of `BYTES_PER_YIELD`. */
  *compact(): Generator<void, void> {
    const bytes = Buffer.allocUnsafeSlow(this.used);
    for (let from = 0; from < this.used; from += BYTES_PER_YIELD) {
      this.bytes.copy(bytes, from, from, Math.min(from + BYTES_PER_YIELD, this.used));
      yield;
    }
    this.bytes = bytes;
    this.ends = this.ends.slice(0, this.rows);
    if (this.nulls.length > 0) this.nulls = this.nulls.slice(0, this.rows);
  }

  private start(row: number): number {
    return row === 0 ? 0 : this.ends[row - 1];
  }
}

/**
 * Rank by campaign id, in place of a Map whose million keys would be traced by every major
 * GC: open addressing with linear probing over typed arrays at most half full, each slot
 * holding an id's 32-bit hash and its rank + 1 (0: empty). A slot whose hash matches is
 * confirmed against the id stored in `ids`.
 */
class IdTable {
  private readonly hashes: Int32Array;
  private readonly ranks: Int32Array;
  private readonly mask: number;

  constructor(
    count: number,
    private readonly ids: StringColumn,
    /** The row in `ids` of each rank. */
    private readonly inputOf: Int32Array,
  ) {
    let slots = 2;
    while (slots < 2 * count) slots *= 2;
    this.hashes = new Int32Array(slots);
    this.ranks = new Int32Array(slots);
    this.mask = slots - 1;
  }

  /** Adds a rank (its `inputOf` already set); a later rank with the same id replaces it. */
  add(rank: number, hash: number): void {
    const { hashes, ranks, mask, ids, inputOf } = this;
    let slot = hash & mask;
    while (ranks[slot] !== 0) {
      if (hashes[slot] === hash && ids.equals(inputOf[ranks[slot] - 1], inputOf[rank])) break;
      slot = (slot + 1) & mask;
    }
    hashes[slot] = hash;
    ranks[slot] = rank + 1;
  }

  find(id: string): number | undefined {
    const { hashes, ranks, mask, ids, inputOf } = this;
    const hash = idHash(id);
    for (let slot = hash & mask; ranks[slot] !== 0; slot = (slot + 1) & mask) {
      if (hashes[slot] === hash && ids.holds(inputOf[ranks[slot] - 1], id)) {
        return ranks[slot] - 1;
      }
    }
    return undefined;
  }
}

/**
 * FNV-1a over the UTF-16 code units, then a Murmur3 finaliser: ids that differ only in
 * their last characters (sequences, timestamps) must still spread over the table's low bits.
 */
function idHash(id: string): number {
  let hash = 0x811c9dc5 | 0;
  for (let at = 0; at < id.length; at++) hash = Math.imul(hash ^ id.charCodeAt(at), 0x01000193);
  hash = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b);
  hash = Math.imul(hash ^ (hash >>> 13), 0xc2b2ae35);
  return hash ^ (hash >>> 16);
}

// ---------------------------------------------------------------------------------------
// Building
// ---------------------------------------------------------------------------------------

/** Loop iterations between two chances for `buildInSlices` to give the event loop a turn. */
const STEPS_PER_YIELD = 4096;

/**
 * Builds a `CampaignIndex` from campaigns added one by one (say, page by page as a snapshot
 * is read), keeping only what the index needs of each: no campaign object is retained.
 * `build` finishes at once; `buildInSlices` finishes in slices of a few milliseconds, so
 * that a million campaigns never hold the event loop for seconds.
 */
export class CampaignIndexBuilder {
  private readonly strings: CampaignStrings = {
    ids: new StringColumn(),
    names: new StringColumn(),
    texts: new StringColumn(),
    imageUrls: new StringColumn<string | null>(),
    targetUrls: new StringColumn(),
  };
  /** `idHash` of each added campaign's id. */
  private readonly idHashes: number[] = [];
  private readonly bids: number[] = [];
  private readonly createdAts: number[] = [];
  private readonly targetingOf: number[] = [];
  private readonly targetings: Targeting[] = [{ countries: [], devices: [] }];
  private readonly targetingIds = new Map<string, number>();
  /** Keyword ids per added campaign, flattened: campaign i owns `[keywordStart[i] .. keywordStart[i + 1])`. */
  private readonly keywordStart: number[] = [0];
  private keywordIds = new Int32Array(1024);
  private keywordCount = 0;
  private readonly vocabulary = new Map<string, number>();
  /** Keyword as written → its id, or -1 when it normalises to nothing: normalises each spelling once. */
  private readonly spellings = new Map<string, number>();

  get size(): number {
    return this.bids.length;
  }

  /**
   * Adds a campaign, unless it can never be served (no keywords, or a bid that is not a
   * finite non-negative number).
   */
  add(campaign: IndexedCampaign): void {
    if (
      campaign.keywords.length === 0 ||
      !Number.isFinite(campaign.bidMicros) ||
      campaign.bidMicros < 0
    ) {
      return;
    }
    const { strings } = this;
    strings.ids.push(campaign.id);
    strings.names.push(campaign.name);
    strings.texts.push(campaign.text);
    strings.imageUrls.push(campaign.imageUrl);
    strings.targetUrls.push(campaign.targetUrl);
    this.idHashes.push(idHash(campaign.id));
    this.bids.push(campaign.bidMicros);
    this.createdAts.push(campaign.createdAt);
    this.targetingOf.push(this.targetingId(campaign));
    const first = this.keywordCount;
    for (const raw of campaign.keywords) {
      // Normalised again, defensively: a keyword counted twice would skew the campaign's total.
      const id = this.keywordId(raw);
      if (id < 0 || this.holds(first, id)) continue;
      if (this.keywordCount === this.keywordIds.length) {
        const grown = new Int32Array(this.keywordIds.length * 2);
        grown.set(this.keywordIds);
        this.keywordIds = grown;
      }
      this.keywordIds[this.keywordCount++] = id;
    }
    this.keywordStart.push(this.keywordCount);
  }

  build(): CampaignIndex {
    const steps = this.steps();
    for (;;) {
      const step = steps.next();
      if (step.done === true) return step.value;
    }
  }

  /** Builds in slices of about `sliceMs` of work, giving the event loop a turn between them. */
  async buildInSlices(sliceMs: number): Promise<CampaignIndex> {
    const steps = this.steps();
    for (;;) {
      const until = performance.now() + sliceMs;
      let step = steps.next();
      while (step.done !== true && performance.now() < until) step = steps.next();
      if (step.done === true) return step.value;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }

  /** Whether the campaign being added, whose keywords start at `first`, already holds `id`. */
  private holds(first: number, id: number): boolean {
    for (let at = first; at < this.keywordCount; at++) if (this.keywordIds[at] === id) return true;
    return false;
  }

  private keywordId(raw: string): number {
    const known = this.spellings.get(raw);
    if (known !== undefined) return known;
    const keyword = normaliseKeyword(raw);
    let id = -1;
    if (keyword !== '') {
      id = this.vocabulary.get(keyword) ?? this.vocabulary.size;
      if (id === this.vocabulary.size) this.vocabulary.set(keyword, id);
    }
    this.spellings.set(raw, id);
    return id;
  }

  /** Campaigns with the same countries and devices share one `Targeting`. */
  private targetingId({ countries, devices }: IndexedCampaign): number {
    if (countries.length === 0 && devices.length === 0) return 0;
    const key = `${countries.join(',')}|${devices.join(',')}`;
    let id = this.targetingIds.get(key);
    if (id === undefined) {
      id = this.targetings.length;
      this.targetings.push({ countries: [...countries], devices: [...devices] as Device[] });
      this.targetingIds.set(key, id);
    }
    return id;
  }

  /** The build, yielding every `STEPS_PER_YIELD` or so iterations of its loops. */
  private *steps(): Generator<void, CampaignIndex> {
    const count = this.bids.length;
    const vocabularySize = this.vocabulary.size;
    const start = Int32Array.from(this.keywordStart);
    const keywordIds = this.keywordIds.subarray(0, this.keywordCount);

    const frequency = new Int32Array(vocabularySize);
    for (let at = 0; at < keywordIds.length; at++) {
      frequency[keywordIds[at]]++;
      if (at % STEPS_PER_YIELD === 0) yield;
    }
    const weights = Float64Array.from(frequency, (holders) => keywordWeight(count, holders));
    const totals = new Float64Array(count);
    const bidPerWeight = new Float64Array(count);
    for (let input = 0; input < count; input++) {
      for (let at = start[input]; at < start[input + 1]; at++) {
        totals[input] += weights[keywordIds[at]];
      }
      bidPerWeight[input] = totals[input] > 0 ? this.bids[input] / totals[input] : 0;
      if (input % STEPS_PER_YIELD === 0) yield;
    }

    const { bids, createdAts, strings, idHashes } = this;
    const order = yield* mergeSort(
      Int32Array.from({ length: count }, (_, index) => index),
      (a, b) =>
        bidPerWeight[b] - bidPerWeight[a] ||
        bids[b] - bids[a] ||
        createdAts[a] - createdAts[b] ||
        strings.ids.compare(a, b),
    );
    const { ids, names, texts, imageUrls, targetUrls } = strings;
    for (const column of [ids, names, texts, imageUrls, targetUrls]) yield* column.compact();

    const ranked: RankedCampaigns = {
      count,
      inputOf: order,
      strings: { ...strings },
      facts: new Float64Array((count + 1) * FACTS_PER_CAMPAIGN),
      targetings: this.targetings,
      createdAt: new Float64Array(count),
      keywordIds: new Int32Array(keywordIds.length),
      byId: new IdTable(count, strings.ids, order),
      maxTotalWeight: 0,
      maxKeywordsPerCampaign: 0,
    };
    const postingStart = new Int32Array(vocabularySize + 1);
    for (let id = 0; id < vocabularySize; id++)
      postingStart[id + 1] = postingStart[id] + frequency[id];
    // Filling the lists in rank order leaves each one sorted: no sort needed.
    const fill = postingStart.slice(0, vocabularySize);
    const postings = new Int32Array(keywordIds.length);
    let written = 0;
    for (let rank = 0; rank < count; rank++) {
      const input = order[rank];
      const at = rank * FACTS_PER_CAMPAIGN;
      ranked.facts[at + BID_PER_WEIGHT] = bidPerWeight[input];
      ranked.facts[at + BID] = bids[input];
      ranked.facts[at + TOTAL_WEIGHT] = totals[input];
      ranked.facts[at + META] = written + TARGETING_UNIT * this.targetingOf[input];
      ranked.createdAt[rank] = createdAts[input];
      ranked.maxTotalWeight = Math.max(ranked.maxTotalWeight, totals[input]);
      const keywordCount = start[input + 1] - start[input];
      ranked.maxKeywordsPerCampaign = Math.max(ranked.maxKeywordsPerCampaign, keywordCount);
      for (let from = start[input]; from < start[input + 1]; from++) {
        const id = keywordIds[from];
        ranked.keywordIds[written++] = id;
        postings[fill[id]++] = rank;
      }
      ranked.byId.add(rank, idHashes[input]);
      if (rank % STEPS_PER_YIELD === 0) yield;
    }

    ranked.facts[count * FACTS_PER_CAMPAIGN + META] = written;
    const phrases = yield* indexPhrases(this.vocabulary);
    return new CampaignIndex(ranked, {
      ids: this.vocabulary,
      names: [...this.vocabulary.keys()],
      weights,
      postingStart,
      postings,
      ...phrases,
    });
  }
}

/** A stable bottom-up merge sort that yields now and then (`Array.prototype.sort` cannot). */
function* mergeSort(
  items: Int32Array<ArrayBuffer>,
  compare: (a: number, b: number) => number,
): Generator<void, Int32Array> {
  const RUN = 32;
  const length = items.length;
  for (let low = 0; low < length; low += RUN) {
    const high = Math.min(low + RUN, length);
    for (let next = low + 1; next < high; next++) {
      const item = items[next];
      let at = next - 1;
      while (at >= low && compare(items[at], item) > 0) {
        items[at + 1] = items[at];
        at--;
      }
      items[at + 1] = item;
    }
    if (low % (RUN * 128) === 0) yield;
  }
  let from = items;
  let to = new Int32Array(length);
  for (let width = RUN; width < length; width *= 2) {
    let steps = 0;
    for (let low = 0; low < length; low += 2 * width) {
      const middle = Math.min(low + width, length);
      const high = Math.min(low + 2 * width, length);
      let left = low;
      let right = middle;
      for (let out = low; out < high; out++) {
        to[out] =
          left < middle && (right >= high || compare(from[left], from[right]) <= 0)
            ? from[left++]
            : from[right++];
        if (++steps % STEPS_PER_YIELD === 0) yield;
      }
    }
    [from, to] = [to, from];
  }
  return from;
}

function* indexPhrases(
  vocabulary: ReadonlyMap<string, number>,
): Generator<void, Pick<KeywordPostings, 'otherPhrases' | 'phrasePrefixes' | 'phraseWordFilter'>> {
  const otherPhrases = new Map<string, number[]>();
  const phrasePrefixes = new Set<string>();
  const phraseWords = new Set<string>();
  let steps = 0;
  for (const [keyword, id] of vocabulary) {
    if (++steps % (STEPS_PER_YIELD / 4) === 0) yield;
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
