import type * as Builder from '@/campaign-index/matching/campaign-index-builder';
import type { IndexedCampaign } from '@/campaign-index/matching/matching.types';
import type { Device } from '@/campaigns/campaigns/devices';
import { campaign, request } from '@test/support/campaign-index';

/**
 * The walk's pruning against no pruning at all: the same index, the same scoring (sent
 * coverage, intent, conversation keywords and all), once walked and once with every
 * campaign scored (`Search.consider` for each rank). Any bound that is not an upper bound
 * lets a better campaign go unscored, and the winners differ.
 */
describe('walkKeywordLists', () => {
  const exhaustive = loadBuilderWithWalk((ranked, _keywords, _request, search) => {
    for (let rank = 0; rank < ranked.count; rank++) search.consider(rank);
  });
  const walked = loadBuilderWithWalk(null);

  it.each([
    { seed: 11, vocabularySize: 40, conversationWords: 0 },
    { seed: 12, vocabularySize: 40, conversationWords: 40 },
    { seed: 13, vocabularySize: 300, conversationWords: 80 },
  ])(
    'picks the winner of scoring every campaign (seed $seed, $vocabularySize keywords, conversations of up to $conversationWords words)',
    ({ seed, vocabularySize, conversationWords }) => {
      const random = seededRandom(seed);
      const words = Array.from({ length: vocabularySize }, (_, i) => `w${i}`);
      const vocabulary = [...words, ...words.slice(0, 20).map((word, i) => `${word} w${i + 1}`)];
      const zipf = () => vocabulary[Math.floor(vocabulary.length * random() ** 3)];
      const campaigns: IndexedCampaign[] = Array.from({ length: 1500 }, (_, i) =>
        campaign(Array.from({ length: 1 + Math.floor(random() * 8) }, zipf), {
          id: `c-${i}`,
          advertiserId: `a-${i % 7}`,
          bidMicros: 50_000 + Math.floor(random() * 5_000_000),
          countries: random() < 0.2 ? ['DE'] : [],
          devices: random() < 0.2 ? [pick<Device>(random, ['mobile', 'desktop'])] : [],
        }),
      );
      const walkedIndex = walked.buildCampaignIndex(campaigns);
      const exhaustiveIndex = exhaustive.buildCampaignIndex(campaigns);
      let matched = 0;
      for (let trial = 0; trial < 400; trial++) {
        const sent = Array.from({ length: 1 + Math.floor(random() * 5) }, zipf);
        const conversation = Array.from(
          { length: Math.floor(random() * (conversationWords + 1)) },
          () => (random() < 0.6 ? zipf() : pick(random, ['buy', 'price', 'the', 'weather'])),
        ).join(' ');
        const matchRequest = request(sent.join(','), {
          conversation,
          country: pick(random, ['DE', 'US', null]),
          device: pick<Device | null>(random, ['mobile', 'desktop', null]),
        });
        const expected = exhaustiveIndex.match(matchRequest);
        const actual = walkedIndex.match(matchRequest);
        expect(actual?.campaign.id).toBe(expected?.campaign.id);
        if (expected === null) continue;
        matched++;
        expect(actual?.score).toBeCloseTo(expected.score, 6);
        // Three ads of distinct advertisers: each later search starts from a lower best.
        const three = walkedIndex.select(matchRequest, null, 3).results;
        const threeExpected = exhaustiveIndex.select(matchRequest, null, 3).results;
        expect(three.map((r) => r.campaign.id)).toEqual(threeExpected.map((r) => r.campaign.id));
      }
      expect(matched).toBeGreaterThan(150);
    },
  );
});

type Walk = typeof import('@/campaign-index/matching/search/max-score-walk').walkKeywordLists;

/** The index builder, with the walk replaced by `walk` (null: the real one), in its own module registry. */
function loadBuilderWithWalk(walk: Walk | null): typeof Builder {
  let builder: typeof Builder | undefined;
  jest.isolateModules(() => {
    if (walk !== null) {
      jest.doMock('@/campaign-index/matching/search/max-score-walk', () => ({
        walkKeywordLists: walk,
      }));
    }
    builder = jest.requireActual<typeof Builder>(
      '@/campaign-index/matching/campaign-index-builder',
    );
    jest.dontMock('@/campaign-index/matching/search/max-score-walk');
  });
  return builder!;
}

const pick = <T>(random: () => number, items: readonly T[]) =>
  items[Math.floor(random() * items.length)];

function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}
