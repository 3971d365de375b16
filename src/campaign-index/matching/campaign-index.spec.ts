import {
  buildCampaignIndex,
  CampaignIndexBuilder,
} from '@/campaign-index/matching/campaign-index-builder';
import { MAX_CONVERSATION_KEYWORDS } from '@/campaign-index/matching/conversation-keywords';
import type { IndexedCampaign, MatchRequest } from '@/campaign-index/matching/matching.types';
import type { Device } from '@/campaigns/devices';
import { normaliseKeyword, parseKeywordList } from '@/campaigns/keywords';
import { keywordWeight } from '@/campaign-index/matching/scoring';
import { matchesTargeting } from '@/campaign-index/matching/targeting';
import { containsKeyword, tokeniseText } from '../../../test/support/tokenised-text';

const UNIT = 1_000_000;
const DAY = 86_400_000;

let sequence = 0;

/** A servable campaign; ids and creation times increase with each call unless given. */
function campaign(keywords: string[], overrides: Partial<IndexedCampaign> = {}): IndexedCampaign {
  sequence++;
  return {
    id: `campaign-${String(sequence).padStart(6, '0')}`,
    name: `Campaign ${sequence}`,
    text: 'An ad',
    imageUrl: null,
    targetUrl: 'https://advertiser.example/landing',
    keywords,
    bidMicros: UNIT,
    countries: [],
    devices: [],
    createdAt: Date.UTC(2025, 0, 1) + sequence * DAY,
    ...overrides,
  };
}

function request(keywords: string, overrides: Partial<MatchRequest> = {}): MatchRequest {
  return {
    keywords: parseKeywordList(keywords),
    conversation: '',
    country: null,
    device: null,
    ...overrides,
  };
}

function winnerOf(campaigns: IndexedCampaign[], matchRequest: MatchRequest): string | undefined {
  return buildCampaignIndex(campaigns).match(matchRequest)?.campaign.id;
}

describe('CampaignIndex', () => {
  describe('candidates', () => {
    it('finds no ad when no campaign shares a keyword with the request', () => {
      const index = buildCampaignIndex([campaign(['ai']), campaign(['travel'])]);
      expect(index.match(request('cooking, gardening'))).toBeNull();
    });

    it('finds no ad in an empty index', () => {
      expect(buildCampaignIndex([]).match(request('ai'))).toBeNull();
    });

    it('shows the only campaign sharing a keyword, fully relevant when all its keywords were sent', () => {
      const robots = campaign(['ai', 'robots'], { bidMicros: 2 * UNIT });
      const index = buildCampaignIndex([campaign(['travel']), robots]);
      expect(index.match(request('Robots, AI'))).toEqual({
        campaign: robots,
        relevance: 1,
        score: 2 * UNIT,
      });
    });

    it('matches campaign keywords written with other case, width or spacing', () => {
      const learning = campaign(['  Machine   LEARNING ', 'ＡＩ']);
      expect(winnerOf([learning], request('machine learning'))).toBe(learning.id);
      expect(winnerOf([learning], request('ai'))).toBe(learning.id);
    });

    it('counts a keyword sent twice only once', () => {
      const index = buildCampaignIndex([campaign(['ai', 'robots']), campaign(['robots'])]);
      const result = index.match({ ...request('ai'), keywords: ['ai', 'ai'] });
      const ai = keywordWeight(2, 1);
      const robots = keywordWeight(2, 2);
      expect(result?.relevance).toBeCloseTo(ai / (ai + robots), 12);
    });
  });

  describe('scoring', () => {
    // ai and cooking are each held by two of the three campaigns: equal weights.
    const halfMatchedAt = (bidMicros: number) => [
      campaign(['ai', 'cooking'], { bidMicros }),
      campaign(['ai'], { bidMicros: UNIT }),
      campaign(['cooking', 'travel'], { bidMicros: UNIT / 2 }),
    ];

    it('lets a half-matched campaign that bids three times more beat a fully matched one', () => {
      const [halfMatched, fullyMatched, other] = halfMatchedAt(3 * UNIT);
      const result = buildCampaignIndex([halfMatched, fullyMatched, other]).match(request('ai'));
      expect(result?.campaign.id).toBe(halfMatched.id);
      expect(result?.relevance).toBeCloseTo(0.5, 12);
      expect(result?.score).toBeCloseTo(1.5 * UNIT, 3);
    });

    it('prefers a fully matched campaign over a half-matched one bidding less than twice as much', () => {
      const [halfMatched, fullyMatched, other] = halfMatchedAt(1.8 * UNIT);
      const result = buildCampaignIndex([halfMatched, fullyMatched, other]).match(request('ai'));
      expect(result?.campaign.id).toBe(fullyMatched.id);
      expect(result?.score).toBe(UNIT);
    });

    it('prefers the campaign whose rarer keyword matched', () => {
      // Equal bids and equal totals but for the matched keyword; the common match is older,
      // so only a heavier rare keyword can put the rare match first.
      const commonMatch = campaign(['common', 'alpha'], { createdAt: 1 });
      const fillers = [
        campaign(['common', 'beta']),
        campaign(['common', 'gamma']),
        campaign(['common', 'delta']),
      ];
      const rareMatch = campaign(['rare', 'epsilon']);
      const index = buildCampaignIndex([commonMatch, ...fillers, rareMatch]);
      const result = index.match(request('common, rare'));
      expect(result?.campaign.id).toBe(rareMatch.id);
      expect(result?.relevance).toBeCloseTo(0.5, 12);
    });

    it('weighs a keyword by ln(1 + campaigns / campaigns holding it)', () => {
      const partly = campaign(['ai', 'robots', 'cooking']);
      const index = buildCampaignIndex([partly, campaign(['ai']), campaign(['ai', 'travel'])]);
      const ai = Math.log(1 + 3 / 3);
      const once = Math.log(1 + 3 / 1);
      const result = index.match(request('robots'));
      expect(result?.campaign.id).toBe(partly.id);
      expect(result?.relevance).toBeCloseTo(once / (ai + once + once), 12);
    });
  });

  describe('conversation', () => {
    it('lets a keyword found in the conversation break a tie among candidates, at half weight', () => {
      const cooking = campaign(['ai', 'cooking'], { createdAt: 1 });
      const robots = campaign(['ai', 'robots'], { createdAt: 2 });
      const index = buildCampaignIndex([cooking, robots]);
      const result = index.match(request('ai', { conversation: 'Can AI help me build Robots?' }));
      const ai = keywordWeight(2, 2);
      const once = keywordWeight(2, 1);
      expect(result?.campaign.id).toBe(robots.id);
      expect(result?.relevance).toBeCloseTo((ai + once / 2) / (ai + once), 12);
    });

    it('never shows a campaign that shares no sent keyword, however well the conversation fits', () => {
      const robots = campaign(['robots'], { bidMicros: 10 * UNIT });
      const cooking = campaign(['ai', 'cooking']);
      const conversation = 'robots robots robots';
      expect(winnerOf([robots, cooking], request('ai', { conversation }))).toBe(cooking.id);
      expect(winnerOf([robots, cooking], request('gardening', { conversation }))).toBeUndefined();
    });

    it('never shows a campaign found only through the conversation, even when it would score higher', () => {
      // Twenty candidates hold 'ai' and a keyword of their own; the robots campaign scores
      // 0.4 units on the conversation alone, more than the best candidate's 0.377.
      const candidates = Array.from({ length: 20 }, (_, index) =>
        campaign(['ai', `topic${index}`], { bidMicros: 2 * UNIT - index * 50_000 }),
      );
      const robots = campaign(['robots'], { bidMicros: 0.8 * UNIT });
      const index = buildCampaignIndex([...candidates, robots]);
      const result = index.match(request('ai', { conversation: 'robots everywhere' }));
      expect(result?.campaign.id).toBe(candidates[0].id);
      expect(result?.score).toBeCloseTo(
        (2 * UNIT * keywordWeight(21, 20)) / (keywordWeight(21, 20) + keywordWeight(21, 1)),
        3,
      );
    });

    it('finds multi-word and punctuated keywords in the conversation', () => {
      const oldest = campaign(['ai', 'deep learning'], { createdAt: 1 });
      const machineLearning = campaign(['ai', 'machine learning'], { createdAt: 2 });
      const node = campaign(['ai', 'node.js'], { createdAt: 3 });
      const campaigns = [oldest, machineLearning, node];
      const asked = (conversation: string) => winnerOf(campaigns, request('ai', { conversation }));
      expect(asked('Is Machine-Learning hard?')).toBe(machineLearning.id);
      expect(asked('We run Node.js on servers')).toBe(node.id);
      expect(asked('the machine is learning')).toBe(oldest.id);
    });

    it('finds accented and non-Latin conversation keywords whatever their case', () => {
      const oldest = campaign(['dessert', 'tiramisu'], { createdAt: 1 });
      const brulee = campaign(['dessert', 'crème brûlée'], { createdAt: 2 });
      const tokyo = campaign(['dessert', '東京'], { createdAt: 3 });
      const campaigns = [oldest, brulee, tokyo];
      const asked = (conversation: string) =>
        winnerOf(campaigns, request('dessert', { conversation }));
      expect(asked('Une CRÈME BRÛLÉE, s’il vous plaît')).toBe(brulee.id);
      expect(asked('Desserts in 東京?')).toBe(tokyo.id);
      expect(asked('no match here')).toBe(oldest.id);
    });

    it('finds conversation keywords as whole words only', () => {
      const zoo = campaign(['ai', 'zoo'], { createdAt: 1 });
      const cart = campaign(['ai', 'cart'], { createdAt: 2 });
      const conversation = 'my favourite cartoon';
      expect(winnerOf([zoo, cart], request('ai', { conversation }))).toBe(zoo.id);
    });

    it('shows a dearer campaign whose other keywords the conversation mentions over a cheaper exact match', () => {
      const exact = campaign(['ai'], { bidMicros: UNIT, createdAt: 1 });
      const broad = campaign(['ai', 'robots', 'drones', 'sensors'], { bidMicros: 1.8 * UNIT });
      const index = buildCampaignIndex([exact, broad]);
      const conversation = 'Which sensors do drones and robots use?';
      const ai = keywordWeight(2, 2);
      const once = keywordWeight(2, 1);
      const lifted = index.match(request('ai', { conversation }));
      expect(lifted?.campaign.id).toBe(broad.id);
      expect(lifted?.relevance).toBeCloseTo((ai + 1.5 * once) / (ai + 3 * once), 12);
      expect(index.match(request('ai'))?.campaign.id).toBe(exact.id);
    });

    it('counts a sent keyword at full weight once even when the conversation repeats it', () => {
      const index = buildCampaignIndex([campaign(['ai', 'robots', 'cooking'])]);
      const result = index.match(request('ai', { conversation: 'ai, AI and more ai' }));
      expect(result?.relevance).toBeCloseTo(1 / 3, 12);
    });
  });

  describe('ties', () => {
    it('gives an equal score to the higher bid', () => {
      // x and y are each held by two campaigns, so the dearer campaign is exactly half matched.
      const cheaper = campaign(['x'], { bidMicros: 2 * UNIT, createdAt: 1, id: 'a' });
      const dearer = campaign(['x', 'y'], { bidMicros: 4 * UNIT, createdAt: 2, id: 'b' });
      const index = buildCampaignIndex([cheaper, dearer, campaign(['y', 'z'])]);
      const result = index.match(request('x'));
      expect(result?.campaign.id).toBe(dearer.id);
      expect(result?.score).toBe(2 * UNIT);
    });

    it('gives an equal score and bid to the older campaign', () => {
      const newer = campaign(['ai'], { createdAt: 2, id: 'a' });
      const older = campaign(['ai'], { createdAt: 1, id: 'b' });
      expect(winnerOf([newer, older], request('ai'))).toBe(older.id);
    });

    it('gives a tie of score, bid and age to the smaller id', () => {
      const larger = campaign(['ai'], { createdAt: 1, id: 'b' });
      const smaller = campaign(['ai'], { createdAt: 1, id: 'a' });
      expect(winnerOf([larger, smaller], request('ai'))).toBe(smaller.id);
    });

    it('orders ids beyond ASCII as JavaScript compares strings', () => {
      // By code point U+FF5E comes first; by UTF-16 code unit the emoji's surrogate (D83D) does.
      const emoji = campaign(['ai'], { createdAt: 1, id: 'id-\u{1F600}' });
      const fullwidth = campaign(['ai'], { createdAt: 1, id: 'id-\uFF5E' });
      const accented = campaign(['ai'], { createdAt: 1, id: 'id-\u00E9' });
      expect(winnerOf([fullwidth, emoji], request('ai'))).toBe(emoji.id);
      expect(winnerOf([emoji, accented], request('ai'))).toBe(accented.id);
    });
  });

  describe('targeting', () => {
    const germany = campaign(['ai'], { bidMicros: 5 * UNIT, countries: ['DE'] });
    const tablets = campaign(['ai'], { bidMicros: 4 * UNIT, devices: ['tablet'] });
    const everyone = campaign(['ai'], { bidMicros: UNIT });
    const campaigns = [germany, tablets, everyone];

    it('shows a country-targeted campaign to a user in that country', () => {
      expect(winnerOf(campaigns, request('ai', { country: 'DE' }))).toBe(germany.id);
    });

    it('excludes a country-targeted campaign when the request shows another country or none', () => {
      expect(winnerOf(campaigns, request('ai', { country: 'FR' }))).toBe(everyone.id);
      expect(winnerOf(campaigns, request('ai', { country: null }))).toBe(everyone.id);
    });

    it('shows a device-targeted campaign only on that device', () => {
      expect(winnerOf(campaigns, request('ai', { device: 'tablet' }))).toBe(tablets.id);
      expect(winnerOf(campaigns, request('ai', { device: 'mobile' }))).toBe(everyone.id);
      expect(winnerOf(campaigns, request('ai', { device: null }))).toBe(everyone.id);
    });

    it('finds no ad when every candidate targets what the request does not show', () => {
      expect(winnerOf([germany, tablets], request('ai'))).toBeUndefined();
    });
  });

  describe('contents', () => {
    it('counts and finds the campaigns it holds by id', () => {
      const first = campaign(['ai']);
      const index = buildCampaignIndex([first, campaign(['travel'])]);
      expect(index.size).toBe(2);
      expect(index.get(first.id)).toEqual(first);
      expect(index.get('unknown')).toBeUndefined();
    });

    it('gives back names, texts and URLs as added, in any script, and tells no image from an empty one', () => {
      const accented = campaign(['ai'], {
        id: 'kampagne-ü-🍮',
        name: 'Crème brûlée 東京 🍮',
        text: '',
        imageUrl: 'https://img.example/ünïcode.png',
      });
      const emptyImage = campaign(['ai'], { imageUrl: '' });
      const noImage = campaign(['ai'], { imageUrl: null });
      const index = buildCampaignIndex([accented, emptyImage, noImage]);
      expect(index.get(accented.id)).toEqual(accented);
      expect(index.get('kampagne-ü-🍰')).toBeUndefined();
      expect(index.get(emptyImage.id)?.imageUrl).toBe('');
      expect(index.get(noImage.id)?.imageUrl).toBeNull();
    });

    it('finds each of thousands of campaigns by id, and none it does not hold', () => {
      const campaigns = Array.from({ length: 5000 }, (_, index) =>
        campaign([`k${index % 17}`], {
          id: `0190a6f4-${String(index).padStart(4, '0')}-7000-8000-00000000${index % 10}abc`,
        }),
      );
      const index = buildCampaignIndex(campaigns);
      for (const held of campaigns) expect(index.get(held.id)?.id).toBe(held.id);
      expect(index.get(`${campaigns[0].id}x`)).toBeUndefined();
      expect(index.get(campaigns[0].id.slice(1))).toBeUndefined();
      expect(index.get('')).toBeUndefined();
    });

    it('leaves out campaigns without keywords or without a usable bid', () => {
      const servable = campaign(['ai']);
      const noKeywords = campaign([' ', '']);
      const noBid = campaign(['ai'], { bidMicros: Number.NaN });
      const index = buildCampaignIndex([servable, noKeywords, noBid]);
      expect(index.size).toBe(2);
      expect(index.get(noBid.id)).toBeUndefined();
      expect(index.match(request('ai'))?.campaign.id).toBe(servable.id);
    });
  });

  describe('exclusion', () => {
    it('lets the next best candidate win once the best is excluded, and no longer finds it by id', () => {
      const best = campaign(['ai'], { bidMicros: 3 * UNIT });
      const next = campaign(['ai'], { bidMicros: 2 * UNIT });
      const index = buildCampaignIndex([best, next, campaign(['travel'])]);
      expect(index.exclude(best.id)).toBe(true);
      expect(index.match(request('ai'))?.campaign.id).toBe(next.id);
      expect(index.get(best.id)).toBeUndefined();
      expect(index.get(next.id)).toEqual(next);
      expect(index.size).toBe(2);
    });

    it('finds no ad when every candidate is excluded, and ignores unknown or repeated ids', () => {
      const only = campaign(['ai']);
      const index = buildCampaignIndex([only]);
      expect(index.exclude('unknown')).toBe(false);
      expect(index.exclude(only.id)).toBe(true);
      expect(index.exclude(only.id)).toBe(false);
      expect(index.match(request('ai', { conversation: 'ai everywhere' }))).toBeNull();
      expect(index.size).toBe(0);
    });

    it('passes over an excluded campaign that the conversation would have lifted', () => {
      const lifted = campaign(['ai', 'robots'], { bidMicros: 2 * UNIT });
      const plain = campaign(['ai'], { bidMicros: UNIT });
      const index = buildCampaignIndex([lifted, plain]);
      const asked = request('ai', { conversation: 'robots' });
      expect(index.match(asked)?.campaign.id).toBe(lifted.id);
      index.exclude(lifted.id);
      expect(index.match(asked)?.campaign.id).toBe(plain.id);
    });
  });

  describe('building in slices', () => {
    it('builds the same index in slices as at once', async () => {
      const campaigns = Array.from({ length: 3000 }, (_, index) =>
        campaign([`k${index % 7}`, `k${index % 13}`, `k${index % 101}`], {
          bidMicros: 100_000 + ((index * 7919) % 997) * 1000,
        }),
      );
      const builder = new CampaignIndexBuilder();
      campaigns.forEach((c) => builder.add(c));
      const sliced = await builder.buildInSlices(0.1);
      const whole = buildCampaignIndex(campaigns);
      for (const keywords of ['k1', 'k2, k5', 'k100', 'k3, k12, k50']) {
        const asked = request(keywords, { conversation: 'k4 k9 k77' });
        expect(sliced.match(asked)).toEqual(whole.match(asked));
      }
      expect(sliced.size).toBe(whole.size);
    });
  });

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
