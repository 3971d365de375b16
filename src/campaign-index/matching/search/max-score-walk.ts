import {
  BID,
  BID_PER_WEIGHT,
  FACTS_PER_CAMPAIGN,
  type KeywordPostings,
  type RankedCampaigns,
  type RequestKeywords,
  TOTAL_WEIGHT,
} from '../index/index-layout';
import { type Search, sentCoverage } from './scoring';

/**
 * The MaxScore walk (docs/relevance.md#glossary: ceiling, essential lists, leapfrog): most
 * campaigns of a common keyword's long list can never beat the best score so far, so the
 * walk skips them by a bound, and scores every campaign it stops at exactly, from its own
 * keywords: the winner is that of scoring every campaign. Run over the sent keywords'
 * lists; then, when the conversation holds counted keywords, over the sent and the
 * conversation lists together, for the candidates holding one of each (a campaign met in
 * both walks is simply met twice).
 */
export function walkKeywordLists(
  ranked: RankedCampaigns,
  keywords: KeywordPostings,
  request: RequestKeywords,
  search: Search,
  sent: readonly number[],
  conversational: readonly number[],
): void {
  walk(ranked, keywords, request, search, sent, []);
  if (conversational.length > 0) walk(ranked, keywords, request, search, sent, conversational);
}

const SENT = 1;
const CONVERSATION = 2;

function walk(
  ranked: RankedCampaigns,
  keywords: KeywordPostings,
  request: RequestKeywords,
  search: Search,
  sent: readonly number[],
  conversational: readonly number[],
): void {
  const { postingStart, postings } = keywords;
  const { facts, count } = ranked;
  const order = [...sent, ...conversational].sort((a, b) => request.reach[a] - request.reach[b]);
  const lists = order.length;
  const cursors = order.map((id) => postingStart[id]);
  const ends = order.map((id) => postingStart[id + 1]);
  const kinds = order.map((id) => (request.sent[id] !== 0 ? SENT : CONVERSATION));
  const needed = conversational.length > 0 ? SENT | CONVERSATION : SENT;
  const { bounds, heaviestBelow, bitsBelow } = prefixBounds(ranked, request, order);
  /** The first campaign from `rank` on in a list of `kind`; `count` when none. */
  const nextOfKind = (kind: number, rank: number): number => {
    let next = count;
    for (let list = 0; list < lists; list++) {
      if (kinds[list] !== kind) continue;
      const cursor = seek(postings, cursors[list], ends[list], rank);
      cursors[list] = cursor;
      if (cursor < ends[list] && postings[cursor] < next) next = postings[cursor];
    }
    return next;
  };
  let firstEssential = 0;
  let rank = 0;
  while (rank < count) {
    const ceiling = facts[rank * FACTS_PER_CAMPAIGN + BID_PER_WEIGHT];
    const threshold = search.weightThreshold;
    if (ceiling * bounds[lists] < threshold) return;
    while (firstEssential < lists && ceiling * bounds[firstEssential + 1] < threshold) {
      firstEssential++;
    }
    let next = count;
    let held = 0;
    for (let list = firstEssential; list < lists; list++) {
      const cursor = seek(postings, cursors[list], ends[list], rank);
      cursors[list] = cursor;
      if (cursor >= ends[list] || postings[cursor] > next) continue;
      if (postings[cursor] < next) {
        next = postings[cursor];
        held = kinds[list];
      } else {
        held |= kinds[list];
      }
    }
    if (next === count) return;
    if (held !== needed) {
      // It lacks a kind of keyword: the next candidate is the next campaign holding each.
      let candidate = next;
      for (const kind of [SENT, CONVERSATION]) {
        if ((needed & kind) !== 0 && (held & kind) === 0) {
          candidate = Math.max(candidate, nextOfKind(kind, next));
        }
      }
      if (candidate === count) return;
      if (candidate !== next) {
        rank = candidate;
        continue;
      }
    }
    // Its own bound: its bid and total weight, the lists that hold it and every lighter one.
    let reach = heaviestBelow[firstEssential];
    let bits = bitsBelow[firstEssential];
    for (let list = firstEssential; list < lists; list++) {
      if (cursors[list] < ends[list] && postings[cursors[list]] === next) {
        reach += request.reach[order[list]];
        bits |= request.sent[order[list]];
      }
    }
    const at = next * FACTS_PER_CAMPAIGN;
    const most = facts[at + BID] * Math.min(1, reach / facts[at + TOTAL_WEIGHT]);
    if (most * sentCoverage(request, bits) >= threshold) search.consider(next);
    rank = next + 1;
  }
}

interface PrefixBounds {
  /**
   * `bounds[k]`: the most that a campaign found only in the first `k` lists can score per
   * unit of bid per weight (before the intent factor, which `weightThreshold` already
   * divides out). Grows with `k`.
   */
  bounds: Float64Array;
  /** `heaviestBelow[k]`: the reach of the heaviest `maxKeywordsPerCampaign` of the first `k` lists. */
  heaviestBelow: Float64Array;
  /** `bitsBelow[k]`: the sent keywords the first `k` lists stand for. */
  bitsBelow: Int32Array;
}

function prefixBounds(
  ranked: RankedCampaigns,
  request: RequestKeywords,
  order: readonly number[],
): PrefixBounds {
  const { maxTotalWeight, maxKeywordsPerCampaign: most } = ranked;
  const lists = order.length;
  const bounds = new Float64Array(lists + 1);
  const heaviestBelow = new Float64Array(lists + 1);
  const bitsBelow = new Int32Array(lists + 1);
  const reachBelow = new Float64Array(lists + 1);
  for (let k = 1; k <= lists; k++) {
    const id = order[k - 1];
    reachBelow[k] = reachBelow[k - 1] + request.reach[id];
    bitsBelow[k] = bitsBelow[k - 1] | request.sent[id];
    // Lightest first: the heaviest `most` of the first k lists are the last `most` of them.
    heaviestBelow[k] = reachBelow[k] - reachBelow[Math.max(0, k - most)];
    bounds[k] = Math.min(maxTotalWeight, heaviestBelow[k]) * sentCoverage(request, bitsBelow[k]);
  }
  return { bounds, heaviestBelow, bitsBelow };
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
