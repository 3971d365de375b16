import { buildCampaignIndex } from '@/campaign-index/matching/campaign-index-builder';
import { MAX_CONVERSATION_KEYWORDS } from '@/campaign-index/matching/conversation-keywords';
import type { IndexedCampaign, MatchRequest } from '@/campaign-index/matching/matching.types';
import type { Device } from '@/campaigns/devices';
import { normaliseKeyword } from '@/common/keywords';
import { keywordWeight } from '@/campaign-index/matching/scoring';
import { matchesTargeting } from '@/campaign-index/matching/targeting';
import { campaign, request } from '@test/support/campaign-index';
import { containsKeyword, tokeniseText } from '@test/support/tokenised-text';

describe('CampaignIndex', () => {
  describe('against scoring every campaign', () => {
    // Coarse bids and dates make many exact ties; continuous bids make the pruning bound
    // the only thing between a near-best campaign and the winner.
    it.each([
      { bids: 'coarse', bid: (random: () => number) => (1 + Math.floor(random() * 4)) * 250_000 },
      { bids: 'continuous', bid: (random: () => number) => 100_000 + random() * 5_000_000 },
    ])(
      'picks the same winner as a full scan on random Zipf-distributed campaigns ($bids bids)',
      ({ bid }) => {
        const random = seededRandom(20250101);
        const vocabulary = [
          ...Array.from({ length: 200 }, (_, word) => `word${word}`),
          'machine learning',
          'new york',
          'node.js',
        ];
        const zipfWord = () => vocabulary[Math.floor(vocabulary.length * random() ** 3)];
        const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)];
        const campaigns = Array.from({ length: 2000 }, (_, index) =>
          campaign(Array.from({ length: 2 + Math.floor(random() * 6) }, zipfWord), {
            id: `random-${index}`,
            bidMicros: bid(random),
            createdAt: pick([1, 2, 3]),
            countries: random() < 0.2 ? [pick(['DE', 'US'])] : [],
            devices: random() < 0.2 ? [pick<Device>(['mobile', 'desktop'])] : [],
          }),
        );
        const index = buildCampaignIndex(campaigns);
        const scanEveryCampaign = fullScanner(campaigns);
        let matched = 0;
        for (let trial = 0; trial < 300; trial++) {
          const keywords = Array.from({ length: 1 + Math.floor(random() * 3) }, zipfWord);
          const conversationWords = Array.from({ length: Math.floor(random() * 60) }, () =>
            random() < 0.7 ? zipfWord() : 'filler',
          );
          const matchRequest = request(keywords.join(','), {
            conversation: conversationWords.join(' '),
            country: pick(['DE', 'US', null]),
            device: pick<Device | null>(['mobile', 'desktop', null]),
          });
          const expected = scanEveryCampaign(matchRequest);
          const actual = index.match(matchRequest);
          expect(actual?.campaign.id).toBe(expected?.campaign.id);
          if (expected !== null) {
            matched++;
            expect(actual?.score).toBeCloseTo(expected.score, 3);
          }
        }
        expect(matched).toBeGreaterThan(200);
      },
    );
  });
});

/** The scoring rules written plainly, with no index and no pruning. */
function fullScanner(campaigns: IndexedCampaign[]) {
  const keywordsOf = new Map(
    campaigns.map((c) => [c, [...new Set(c.keywords.map(normaliseKeyword))]]),
  );
  const holders = new Map<string, number>();
  for (const keywords of keywordsOf.values()) {
    for (const keyword of keywords) holders.set(keyword, (holders.get(keyword) ?? 0) + 1);
  }
  const weight = (keyword: string) => keywordWeight(campaigns.length, holders.get(keyword) ?? 0);
  const vocabulary = [...holders.keys()];
  return (matchRequest: MatchRequest) => {
    const sent = new Set(matchRequest.keywords);
    const tokenised = tokeniseText(matchRequest.conversation);
    // Only the MAX_CONVERSATION_KEYWORDS heaviest conversation keywords count (then by name).
    const counted = new Set(
      vocabulary
        .filter((keyword) => !sent.has(keyword) && containsKeyword(tokenised, keyword))
        .sort((a, b) => weight(b) - weight(a) || (a < b ? -1 : 1))
        .slice(0, MAX_CONVERSATION_KEYWORDS),
    );
    const conversation = { has: (keyword: string) => counted.has(keyword) };
    let best: { campaign: IndexedCampaign; score: number } | null = null;
    for (const [c, keywords] of keywordsOf) {
      if (!keywords.some((keyword) => sent.has(keyword))) continue;
      if (!matchesTargeting(c, matchRequest.country, matchRequest.device)) continue;
      let met = 0;
      for (const keyword of keywords) {
        if (sent.has(keyword)) met += weight(keyword);
        else if (conversation.has(keyword)) met += weight(keyword) / 2;
      }
      const total = keywords.reduce((sum, keyword) => sum + weight(keyword), 0);
      const score = (met / total) * c.bidMicros;
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
