import { buildCampaignIndex } from '@/campaign-index/matching/campaign-index-builder';
import { RELEVANCE_TUNING } from '@/campaign-index/matching/relevance-tuning';
import { keywordWeight } from '@/campaign-index/matching/search/scoring';
import { campaign, request, UNIT, winnerOf } from '@test/support/campaign-index';

const scoreOf = (relevance: number, bidMicros: number) => relevance * bidMicros;
/** A conversation without a word of wanting ("buy", "which", "recommend"…) lowers relevance. */
const { noIntentFactor, relevanceKeywords, sentCoverageBase, minRelevance } = RELEVANCE_TUNING;

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

    it('lets a half-matched campaign that bids more than twice as much beat a fully matched one', () => {
      const [halfMatched, fullyMatched, other] = halfMatchedAt(3 * UNIT);
      const result = buildCampaignIndex([halfMatched, fullyMatched, other]).match(request('ai'));
      expect(result?.campaign.id).toBe(halfMatched.id);
      expect(result?.relevance).toBeCloseTo(0.5, 12);
      expect(result?.score).toBeCloseTo(scoreOf(0.5, 3 * UNIT), 3);
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
      // Half its keyword weight, and it explains only the rarer of the two sent keywords.
      const common = keywordWeight(5, 4);
      const rare = keywordWeight(5, 1);
      const explained = rare / (common + rare);
      expect(result?.relevance).toBeCloseTo(
        0.5 * (sentCoverageBase + (1 - sentCoverageBase) * explained),
        12,
      );
    });

    it('weighs a keyword by ln(1 + campaigns / campaigns holding it)', () => {
      const partly = campaign(['ai', 'robots']);
      const index = buildCampaignIndex([partly, campaign(['ai']), campaign(['ai', 'travel'])]);
      const ai = Math.log(1 + 3 / 3);
      const once = Math.log(1 + 3 / 1);
      const result = index.match(request('robots'));
      expect(result?.campaign.id).toBe(partly.id);
      expect(result?.relevance).toBeCloseTo(once / (ai + once), 12);
    });

    it('measures relevance against its few heaviest keywords: more synonyms do not dilute it', () => {
      expect(relevanceKeywords).toBe(3);
      const synonyms = campaign(['sofa', 'couch', 'settee', 'ottoman', 'chesterfield', 'divan']);
      const index = buildCampaignIndex([synonyms]);
      expect(index.match(request('couch'))?.relevance).toBeCloseTo(1 / 3, 12);
      expect(index.match(request('sofa, couch'))?.relevance).toBeCloseTo(2 / 3, 12);
      expect(index.match(request('sofa, couch, divan'))?.relevance).toBe(1);
    });

    it('serves nothing below the minimum relevance, whatever the bid', () => {
      // 'ai' is held by every campaign, so meeting it is a small share of the broad
      // campaign's weight (ln 2 against ln 2 + 2 ln 22: 0.10), under the minimum: its bid of
      // 100 would otherwise win (0.10 × 100 = 10 against 0.1).
      const exact = Array.from({ length: 20 }, () => campaign(['ai'], { bidMicros: UNIT / 10 }));
      const broad = campaign(['ai', 'robots', 'drones'], { bidMicros: 100 * UNIT });
      const ai = keywordWeight(21, 21);
      expect(ai / (ai + 2 * keywordWeight(21, 1))).toBeLessThan(minRelevance);
      expect(winnerOf([...exact, broad], request('ai'))).toBe(exact[0].id);
      expect(winnerOf([...exact, broad], request('ai, robots'))).toBe(broad.id);
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
      expect(result?.relevance).toBeCloseTo(((ai + once / 2) / (ai + once)) * noIntentFactor, 12);
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
      const result = index.match(request('ai', { conversation: 'Which robots are everywhere?' }));
      expect(result?.campaign.id).toBe(candidates[0].id);
      const relevance = keywordWeight(21, 20) / (keywordWeight(21, 20) + keywordWeight(21, 1));
      expect(result?.score).toBeCloseTo(scoreOf(relevance, 2 * UNIT), 3);
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
      const lifted = index.match(request('ai', { conversation }));
      expect(lifted?.campaign.id).toBe(broad.id);
      // ai, and three conversation keywords at half weight, against its three heaviest.
      const ai = keywordWeight(2, 2);
      const once = keywordWeight(2, 1);
      expect(lifted?.relevance).toBeCloseTo((ai + 1.5 * once) / (3 * once), 12);
      expect(index.match(request('ai'))?.campaign.id).toBe(exact.id);
    });

    it('counts a sent keyword at full weight once even when the conversation repeats it', () => {
      const index = buildCampaignIndex([campaign(['ai', 'robots', 'cooking'])]);
      const result = index.match(request('ai', { conversation: 'ai, AI and more ai' }));
      expect(result?.relevance).toBeCloseTo((1 / 3) * noIntentFactor, 12);
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
});
