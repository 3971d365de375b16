import { buildCampaignIndex } from '@/campaign-index/matching/campaign-index-builder';
import { MAX_CONVERSATION_KEYWORDS } from '@/campaign-index/matching/index/conversation-keywords';
import type { IndexedCampaign, MatchRequest } from '@/campaign-index/matching/matching.types';
import type { Device } from '@/campaigns/campaigns/devices';
import { normaliseKeyword } from '@/common/keywords';
import { decompose } from '@/common/text-folding';
import type { CampaignIndex } from '@/campaign-index/matching/campaign-index';
import { NO_WORDS, readConversation } from '@/campaign-index/matching/words/conversation-reading';
import { RELEVANCE_TUNING } from '@/campaign-index/matching/relevance-tuning';
import { keywordWeight } from '@/campaign-index/matching/search/scoring';
import { matchesTargeting } from '@/campaign-index/matching/targeting';
import { campaign, request } from '@test/support/campaign-index';
import { containsKeyword, tokeniseText } from '@test/support/tokenised-text';

describe('CampaignIndex', () => {
  // The share of the sent keywords a campaign explains is a factor the scanner below leaves
  // out (1 here); the scoring specs test it. Everything else is scored as served.
  const coverageBase = RELEVANCE_TUNING.sentCoverageBase;
  beforeAll(() => (RELEVANCE_TUNING.sentCoverageBase = 1));
  afterAll(() => (RELEVANCE_TUNING.sentCoverageBase = coverageBase));

  describe('against scoring every campaign', () => {
    // Coarse bids and dates make many exact ties; continuous bids make the pruning bound
    // the only thing between a near-best campaign and the winner.
    const bidRules = [
      { bids: 'coarse', bid: (random: () => number) => (1 + Math.floor(random() * 4)) * 250_000 },
      { bids: 'continuous', bid: (random: () => number) => 100_000 + random() * 5_000_000 },
    ];

    it.each(bidRules)(
      'picks the same winner as a full scan on random Zipf-distributed campaigns ($bids bids)',
      ({ bid }) => {
        const vocabulary = [
          ...Array.from({ length: 200 }, (_, word) => `word${word}`),
          'machine learning',
          'new york',
          'node.js',
        ];
        const matched = compareWithFullScan(vocabulary, bid, 20250101);
        expect(matched).toBeGreaterThan(200);
      },
    );

    it.each(bidRules)(
      'picks the same winner as a full scan when keywords meet word by word, by stem and in part ($bids bids)',
      ({ bid }) => {
        // Phrases sharing words, in singular and plural, with generic words and compounds,
        // so that most matches are partial.
        const words = (
          'hotel hotels booking cheap web hosting webhosting puppy puppies nutrition password ' +
          'passwords manager learn french spanish online course software newsletter coffee ' +
          'beans espresso bike bikes electric car rental insurance yoga app home katzenfutter katzen'
        ).split(' ');
        const random = seededRandom(7);
        const vocabulary = Array.from({ length: 60 }, () =>
          Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(random, words)).join(' '),
        );
        const matched = compareWithFullScan(vocabulary, bid, 424242, words);
        expect(matched).toBeGreaterThan(100);
      },
    );
  });
});

/**
 * Matches 300 random requests on 2,000 random campaigns with keywords from `vocabulary`
 * (Zipf-like), with the index and with the full scan; expects the same winner and score.
 * Sent keywords are drawn from `sentWords` when given (word by word), else from the
 * vocabulary. Answers how many requests matched.
 */
function compareWithFullScan(
  vocabulary: readonly string[],
  bid: (random: () => number) => number,
  seed: number,
  sentWords?: readonly string[],
): number {
  const random = seededRandom(seed);
  const zipfWord = () => vocabulary[Math.floor(vocabulary.length * random() ** 3)];
  const campaigns = Array.from({ length: 2000 }, (_, index) =>
    campaign(Array.from({ length: 2 + Math.floor(random() * 6) }, zipfWord), {
      id: `random-${index}`,
      bidMicros: bid(random),
      createdAt: pick(random, [1, 2, 3]),
      countries: random() < 0.2 ? [pick(random, ['DE', 'US'])] : [],
      devices: random() < 0.2 ? [pick<Device>(random, ['mobile', 'desktop'])] : [],
    }),
  );
  const index = buildCampaignIndex(campaigns);
  const scanEveryCampaign = fullScanner(campaigns, index);
  const sentKeyword = () =>
    sentWords === undefined
      ? zipfWord()
      : Array.from({ length: 1 + Math.floor(random() * 2) }, () => pick(random, sentWords)).join(
          ' ',
        );
  let matched = 0;
  for (let trial = 0; trial < 300; trial++) {
    const keywords = Array.from({ length: 1 + Math.floor(random() * 3) }, sentKeyword);
    const conversationWords = Array.from({ length: Math.floor(random() * 60) }, () =>
      random() < 0.7 ? zipfWord() : pick(random, ['filler', 'which', 'price']),
    );
    const matchRequest = request(keywords.join(','), {
      conversation: conversationWords.join(' '),
      country: pick(random, ['DE', 'US', null]),
      device: pick<Device | null>(random, ['mobile', 'desktop', null]),
    });
    const expected = scanEveryCampaign(matchRequest);
    const actual = index.match(matchRequest);
    expect(actual?.campaign.id).toBe(expected?.campaign.id);
    if (expected !== null) {
      matched++;
      expect(actual?.score).toBeCloseTo(expected.score, 3);
    }
  }
  return matched;
}

const pick = <T>(random: () => number, items: readonly T[]) =>
  items[Math.floor(random() * items.length)];

/**
 * The scoring rules written plainly, with no posting list and no pruning. What a sent
 * keyword reaches of a campaign keyword word by word is the index's own answer
 * (`formMatcher`, which scores every form of the keyword): the walk over the lists is
 * what this checks.
 */
function fullScanner(campaigns: IndexedCampaign[], index: CampaignIndex) {
  const keywordsOf = new Map(
    campaigns.map((c) => [c, [...new Set(c.keywords.map(normaliseKeyword))]]),
  );
  const holders = new Map<string, number>();
  for (const keywords of keywordsOf.values()) {
    for (const keyword of keywords) holders.set(keyword, (holders.get(keyword) ?? 0) + 1);
  }
  const weight = (keyword: string) => keywordWeight(campaigns.length, holders.get(keyword) ?? 0);
  const vocabulary = [...holders.keys()];
  const { relevanceKeywords, minRelevance, noIntentFactor } = RELEVANCE_TUNING;
  return (matchRequest: MatchRequest) => {
    // The share of its weight each keyword reaches by a sent keyword: 1 sent as written.
    const sentShare = new Map<string, number>();
    const formMatchers = new Map(
      matchRequest.keywords.map((sent) => [
        sent,
        index.formMatcher({ ...matchRequest, keywords: [sent] }),
      ]),
    );
    for (const keyword of vocabulary) {
      let share = matchRequest.keywords.includes(keyword) ? 1 : 0;
      const folded = decompose(keyword);
      for (const sent of matchRequest.keywords) {
        // Words that meet share their first letters, or one is a part of the other: a
        // keyword holding none of the sent words' beginnings cannot be met (saves time).
        const starts = decompose(sent)
          .split(/[^a-z0-9]+/)
          .map((word) => word.slice(0, 3));
        if (!starts.some((start) => start !== '' && folded.includes(start))) continue;
        const met = formMatchers.get(sent)!(keyword);
        share = Math.max(share, met?.share ?? 0);
      }
      if (share > 0) sentShare.set(keyword, share);
    }
    const tokenised = tokeniseText(matchRequest.conversation);
    const inConversation = (keyword: string) => containsKeyword(tokenised, keyword);
    // Only the MAX_CONVERSATION_KEYWORDS heaviest conversation keywords count (then by name).
    const counted = new Set(
      vocabulary
        .filter((keyword) => !sentShare.has(keyword) && inConversation(keyword))
        .sort((a, b) => weight(b) - weight(a) || (a < b ? -1 : 1))
        .slice(0, MAX_CONVERSATION_KEYWORDS),
    );
    const intent =
      readConversation(matchRequest.conversation, NO_WORDS).intent === false ? noIntentFactor : 1;
    let best: { campaign: IndexedCampaign; score: number } | null = null;
    for (const [c, keywords] of keywordsOf) {
      if (!keywords.some((keyword) => sentShare.has(keyword))) continue;
      if (!matchesTargeting(c, matchRequest.country, matchRequest.device)) continue;
      let met = 0;
      for (const keyword of keywords) {
        const half = weight(keyword) / 2;
        const sent = (sentShare.get(keyword) ?? 0) * weight(keyword);
        if (sentShare.has(keyword)) met += inConversation(keyword) ? Math.max(sent, half) : sent;
        else if (counted.has(keyword)) met += half;
      }
      const heaviest = keywords.map(weight).sort((a, b) => b - a);
      const total = heaviest.slice(0, relevanceKeywords).reduce((sum, w) => sum + w, 0);
      const relevance = Math.min(1, met / total) * intent;
      if (relevance < minRelevance) continue;
      const score = relevance * c.bidMicros;
      if (best === null || beats(c, score, best.campaign, best.score))
        best = { campaign: c, score };
    }
    return best;
  };
}

function beats(a: IndexedCampaign, aScore: number, b: IndexedCampaign, bScore: number): boolean {
  if (Math.abs(aScore - bScore) > 1e-9 * Math.max(aScore, bScore)) return aScore > bScore;
  if (a.bidMicros !== b.bidMicros) return a.bidMicros > b.bidMicros;
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt;
  return a.id < b.id;
}

/** mulberry32: a small seeded generator, so a failure can be replayed. */
function seededRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
