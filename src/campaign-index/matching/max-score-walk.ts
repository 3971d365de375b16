import {
  BID_PER_WEIGHT,
  FACTS_PER_CAMPAIGN,
  type KeywordPostings,
  type RankedCampaigns,
} from './index-layout';
import type { Search } from './scoring';

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
 * lists whose heaviest reaches (plus `extra`) add up to less than
 * `weightThreshold / ceiling`
 * cannot win, so those lists (the lightest, i.e. the most common keywords, i.e. the
 * longest lists) are not walked. The others ("essential") are merged; with `within`,
 * the merged sent lists and the merged `within` lists leapfrog (each side jumps to the
 * other's next campaign by galloping search), so the longer side is mostly skipped.
 */
export function walkSentLists(
  ranked: RankedCampaigns,
  keywords: KeywordPostings,
  /** The request's reach per keyword id (`RequestKeywords.reach`). */
  reach: Float64Array,
  search: Search,
  sent: number[],
  extra: number,
  within: number[],
): void {
  const { postingStart, postings } = keywords;
  const { facts, count, maxTotalWeight, maxKeywordsPerCampaign: most } = ranked;
  // Lightest first, by what each sent keyword reaches for this request.
  const order = [...sent].sort((a, b) => reach[a] - reach[b]);
  const lists = order.length;
  const cursors = order.map((id) => postingStart[id]);
  const ends = order.map((id) => postingStart[id + 1]);
  const reachBelow = [0];
  for (let list = 0; list < lists; list++) {
    reachBelow.push(reachBelow[list] + reach[order[list]]);
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
    const threshold = search.weightThreshold;
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
