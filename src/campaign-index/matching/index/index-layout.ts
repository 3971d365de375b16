import type { IndexedCampaign } from '@/campaign-index/matching/matching.types';
import type { IdTable } from './id-table';
import type { StringColumn } from './string-column';
import type { ValueCodes } from './value-codes';
import type { WordIndex } from '../words/word-index';

/**
 * The data of a `CampaignIndex`: what `CampaignIndexBuilder` fills and the queries
 * (`CampaignIndex`, `Search`, `walkKeywordLists`, `markConversationKeywords`) read. Rank,
 * facts, posting list, stamp, reach, sent bits: docs/relevance.md#glossary.
 */

/** `RankedCampaigns.facts` holds this many numbers per rank, at the offsets below. */
export const FACTS_PER_CAMPAIGN = 4;
export const BID_PER_WEIGHT = 0;
export const BID = 1;
export const TOTAL_WEIGHT = 2;
/** Where the campaign's keywords start in `keywordIds`, plus its targeting id × `TARGETING_UNIT`. */
export const META = 3;
export const TARGETING_UNIT = 2 ** 32;
/** A bid no campaign has: marks an excluded campaign, which no threshold lets through. */
export const EXCLUDED_BID = -1;

/** `RankedCampaigns.categoryOf` of a campaign without a category. */
export const NO_CATEGORY = -1;

/** `RankedCampaigns.clickIdParamOf` of a campaign whose landing URL gets no click id. */
export const NO_CLICK_ID_PARAM = -1;

/** Countries and devices a campaign targets; entry 0 of `targetings` targets everyone. */
export type Targeting = Pick<IndexedCampaign, 'countries' | 'devices'>;

/**
 * The render strings of the campaigns, in the order they were added (`inputOf` maps a rank
 * to that position): UTF-8 in byte buffers, outside the traced heap (see `StringColumn`).
 */
export interface CampaignStrings {
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
export interface RankedCampaigns {
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
  /** The advertiser of each rank, as its code in `advertisers`. */
  advertiserOf: Int32Array;
  advertisers: ValueCodes;
  /** The category of each rank, as its code in `categories`, or `NO_CATEGORY`. */
  categoryOf: Int32Array;
  categories: ValueCodes;
  /** The click id parameter of each rank, as its code in `clickIdParams`, or `NO_CLICK_ID_PARAM`. */
  clickIdParamOf: Int32Array;
  clickIdParams: ValueCodes;
  keywordIds: Int32Array;
  byId: IdTable;
  maxTotalWeight: number;
  maxKeywordsPerCampaign: number;
}

/** What the index knows of each keyword, by keyword id. */
export interface KeywordPostings {
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
  /** The words of the keywords and their translations, for matches other than equality. */
  words: WordIndex;
}

/**
 * The keywords of the request being matched, by keyword id: a keyword counts for this
 * request when `stamps[id]` holds the request's stamp. Reused from request to request, so
 * marking a keyword costs one write and no request allocates an array the vocabulary's size.
 */
export interface RequestKeywords {
  stamps: Int32Array;
  /**
   * The weight the keyword adds to a campaign holding it: all of it for a keyword sent as
   * written, a share for one met word by word or by translation, half for a conversation keyword.
   */
  reach: Float64Array;
  /**
   * Which sent keywords reached it, a bit each by their position (`sentBit`); 0 for a
   * conversation keyword. Only campaigns holding a sent keyword are candidates.
   */
  sent: Int32Array;
  /** Per bit of `sent`: what that sent keyword says (`sentKeywordWeight`; 0 for the last); their sum. */
  sentWeights: Float64Array;
  sentTotal: number;
  stamp: number;
}

/**
 * The first this many sent keywords have a bit each and count for the share of the request
 * a campaign explains; those past them (a request rarely sends so many) still make
 * candidates, with the last bit, which weighs nothing.
 */
export const SENT_BITS = 31;
export const sentBit = (position: number): number => 1 << Math.min(position, SENT_BITS);
