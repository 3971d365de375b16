import type { MatchRequest } from '@/campaign-index/matching/matching.types';
import {
  BID,
  FACTS_PER_CAMPAIGN,
  META,
  type RankedCampaigns,
  type RequestKeywords,
  TARGETING_UNIT,
  TOTAL_WEIGHT,
} from '../index/index-layout';
import type { MatchFilter } from './match-filter';
import { RELEVANCE_TUNING } from '../relevance-tuning';
import { matchesTargeting } from '../targeting';

/**
 * Scoring a candidate against the best so far (`Search`). Reach, stamp, sent bits,
 * threshold, sent coverage: docs/relevance.md#glossary.
 */

/**
 * Scores this close are a tie. Sums of the same weights taken in a different order differ
 * in the last bits, and such noise must not overrule the documented tie-breaks.
 */
const SCORE_TIE_TOLERANCE = 1e-9;

/** Weight of a keyword: rarer keywords say more about a campaign (inverse document frequency). */
export function keywordWeight(campaignCount: number, campaignsWithKeyword: number): number {
  return Math.log1p(campaignCount / campaignsWithKeyword);
}

/** The best campaign of one match so far, and the score a campaign must reach to beat it. */
export class Search {
  best = -1;
  bestScore = 0;
  bestRelevance = 0;
  /** Not the best score itself: an equal score must still be considered for the tie-breaks. */
  threshold = 0;
  /** A campaign relevant enough to serve was refused by its location or device targeting. */
  offTarget = false;
  /**
   * The threshold as the walk compares it: a campaign whose `BID_PER_WEIGHT` × the weight
   * it can meet is below this cannot beat the best. Its score is relevance × bid, and
   * relevance ≤ factor × met weight / total weight (the factor: the request's intent).
   */
  weightThreshold = 0;
  /** Bits of the sent keywords the campaign being scored met (`matchedWeight`). */
  private sentMet = 0;

  constructor(
    private readonly ranked: RankedCampaigns,
    private readonly keywords: RequestKeywords,
    private readonly request: MatchRequest,
    /** The publisher's controls; null (no call, no cost) when it has none. */
    private readonly filter: MatchFilter | null = null,
    /** Multiplies every relevance: the request's intent (`intentFactor`). */
    private readonly relevanceFactor = 1,
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
    const relevance =
      Math.min(1, weight / facts[at + TOTAL_WEIGHT]) *
      sentCoverage(this.keywords, this.sentMet) *
      this.relevanceFactor;
    if (relevance < RELEVANCE_TUNING.minRelevance) return;
    if (
      meta >= TARGETING_UNIT &&
      !matchesTargeting(
        this.ranked.targetings[Math.floor(meta / TARGETING_UNIT)],
        this.request.country,
        this.request.device,
      )
    ) {
      this.offTarget = true;
      return;
    }
    const score = relevance * bid;
    if (this.best >= 0 && !this.outranks(rank, score)) return;
    // Only a would-be winner is judged: a refused one leaves the threshold where it was, so
    // the walk finds the best campaign that passes, as exactly as without a filter.
    if (this.filter !== null && !this.filter.admits(rank, relevance)) return;
    this.best = rank;
    this.bestScore = score;
    this.bestRelevance = relevance;
    this.threshold = score * (1 - 2 * SCORE_TIE_TOLERANCE);
    this.weightThreshold = this.threshold / this.relevanceFactor;
  }

  /**
   * The weight of the request's keywords among a campaign's (`keywordIds[start .. end)`);
   * 0 when it holds no sent one.
   */
  private matchedWeight(start: number, end: number): number {
    const { keywordIds } = this.ranked;
    const { stamps, reach, sent, stamp } = this.keywords;
    let weight = 0;
    let met = 0;
    for (let at = start; at < end; at++) {
      const id = keywordIds[at];
      if (stamps[id] !== stamp) continue;
      weight += reach[id];
      met |= sent[id];
    }
    this.sentMet = met;
    return met !== 0 ? weight : 0;
  }

  private outranks(rank: number, score: number): boolean {
    const tolerance = SCORE_TIE_TOLERANCE * Math.max(score, this.bestScore);
    if (Math.abs(score - this.bestScore) > tolerance) return score > this.bestScore;
    return compareRanksTieBreak(this.ranked, rank, this.best) < 0;
  }
}

/**
 * The factor of a campaign's relevance for the share of what the request says that it
 * explains: the weight of the sent keywords that met one of its keywords (`met`, bits of
 * `RequestKeywords.sent`) among all sent keywords. Of two campaigns that each meet a
 * keyword, the one that also meets the request's other keywords fits the conversation
 * better ("python" and "programming" against "python", "snake" and "terrarium"). It grows
 * with every bit, so the bits of a set of keywords bound it for any campaign among them.
 */
export function sentCoverage(
  { sentWeights, sentTotal }: Pick<RequestKeywords, 'sentWeights' | 'sentTotal'>,
  met: number,
): number {
  if (sentTotal <= 0) return 1;
  let weight = 0;
  for (let bits = met, position = 0; bits !== 0; bits >>>= 1, position++) {
    if ((bits & 1) !== 0) weight += sentWeights[position];
  }
  const { sentCoverageBase: base } = RELEVANCE_TUNING;
  return base + (1 - base) * Math.min(1, weight / sentTotal);
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
