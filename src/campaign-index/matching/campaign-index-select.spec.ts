import { buildCampaignIndex } from '@/campaign-index/matching/campaign-index-builder';
import type { IndexedCampaign, MatchControls } from '@/campaign-index/matching/matching.types';
import { campaign, request, UNIT } from '@test/support/campaign-index';

const ids = (results: { campaign: IndexedCampaign }[]) => results.map((r) => r.campaign.id);

describe('CampaignIndex.select: the best campaigns that pass the controls', () => {
  const best = campaign(['laptop'], { bidMicros: 3 * UNIT, advertiserId: 'a', category: '596' });
  const second = campaign(['laptop', 'gpu'], {
    bidMicros: 4 * UNIT,
    advertiserId: 'b',
    category: '52',
  });
  const third = campaign(['laptop'], { bidMicros: 1 * UNIT, advertiserId: 'c', category: null });
  const sameAdvertiser = campaign(['laptop'], { bidMicros: UNIT / 2, advertiserId: 'a' });
  const index = buildCampaignIndex([best, second, third, sameAdvertiser]);
  const select = (controls: MatchControls | null, limit = 1) =>
    index.select(request('laptop'), controls, limit);

  it('is match() without controls', () => {
    expect(select(null)).toEqual({ results: [index.match(request('laptop'))], unmet: 'no_match' });
    expect(ids(select(null).results)).toEqual([best.id]);
  });

  it('serves the next best when the best is blocked by category, advertiser or keyword', () => {
    expect(ids(select({ blockedCategories: ['596'] }).results)).toEqual([second.id]);
    expect(ids(select({ blockedAdvertisers: ['a'] }).results)).toEqual([second.id]);
    // "gpu" is not sent, but the campaign targets it: blocked all the same.
    expect(ids(select({ blockedAdvertisers: ['a'], blockedKeywords: ['gpu'] }).results)).toEqual([
      third.id,
    ]);
  });

  it('says blocked when every match is blocked, no_match when nothing matched', () => {
    expect(select({ blockedKeywords: ['laptop'] })).toEqual({ results: [], unmet: 'blocked' });
    expect(index.select(request('cooking'), { blockedKeywords: ['laptop'] }, 1)).toEqual({
      results: [],
      unmet: 'no_match',
    });
  });

  it('says no_targeted_match when targeting refused every match, unless a control refused one it let through', () => {
    const german = campaign(['bratwurst'], { countries: ['DE'], advertiserId: 'd' });
    const mobile = campaign(['bratwurst'], {
      devices: ['mobile'],
      advertiserId: 'e',
      category: '210',
    });
    const targeted = buildCampaignIndex([german, mobile]);
    const none = { results: [], unmet: 'no_targeted_match' };
    expect(targeted.select(request('bratwurst'), null)).toEqual(none);
    expect(targeted.select(request('bratwurst'), null, 3)).toEqual(none);
    expect(targeted.select(request('bratwurst', { country: 'FR', device: 'desktop' }), {})).toEqual(
      none,
    );
    expect(ids(targeted.select(request('bratwurst', { country: 'DE' }), null).results)).toEqual([
      german.id,
    ]);
    // Targeting let the mobile campaign through; the block took it away.
    const onMobile = request('bratwurst', { device: 'mobile' });
    expect(targeted.select(onMobile, { blockedCategories: ['210'] })).toEqual({
      results: [],
      unmet: 'blocked',
    });
    // Keywords no campaign holds stay no_match.
    expect(targeted.select(request('sauerkraut'), null)).toEqual({
      results: [],
      unmet: 'no_match',
    });
  });

  it('applies the relevance floor and names it when it took the last match away', () => {
    // `second` meets half its keywords' weight at most: below a floor of 0.9.
    expect(ids(select({ blockedAdvertisers: ['a'], relevanceFloor: 0.9 }).results)).toEqual([
      third.id,
    ]);
    expect(select({ blockedAdvertisers: ['a', 'c'], relevanceFloor: 0.9 })).toEqual({
      results: [],
      unmet: 'relevance_floor',
    });
  });

  it('ignores values no campaign holds', () => {
    const controls = { blockedCategories: ['JLBCU7'], blockedAdvertisers: ['z'] };
    expect(ids(select(controls).results)).toEqual([best.id]);
  });

  it('gives up to `limit` ads of distinct advertisers, best first', () => {
    expect(ids(select(null, 3).results)).toEqual([best.id, second.id, third.id]);
    expect(ids(select(null, 2).results)).toEqual([best.id, second.id]);
    expect(ids(select({ blockedAdvertisers: ['b'] }, 3).results)).toEqual([best.id, third.id]);
  });

  it('finds what scoring every admissible campaign alone finds, for random controls', () => {
    const words = ['a', 'b', 'c', 'd', 'e', 'f'];
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)];
    // One advertiser each, so that blocking all the others scores one campaign alone.
    const campaigns = Array.from({ length: 60 }, (_, i) =>
      campaign([...new Set([pick(words), pick(words), pick(words)])], {
        bidMicros: Math.round((0.1 + random()) * UNIT),
        advertiserId: `advertiser-${i}`,
        category: pick(['596', '52', null]),
      }),
    );
    const advertisers = campaigns.map((c) => c.advertiserId);
    const all = buildCampaignIndex(campaigns);
    const alone = (c: IndexedCampaign, sent: string) =>
      all.select(request(sent), {
        blockedAdvertisers: advertisers.filter((a) => a !== c.advertiserId),
      }).results[0];
    for (let round = 0; round < 200; round++) {
      const categories = random() < 0.5 ? [pick(['596', '52'])] : [];
      const blockedAdvertisers = [pick(advertisers), pick(advertisers)];
      const keywords = random() < 0.3 ? [pick(words)] : [];
      const floor = random() < 0.5 ? random() : 0;
      const sent = `${pick(words)}, ${pick(words)}`;
      const got = all.select(request(sent), {
        blockedCategories: categories,
        blockedAdvertisers,
        blockedKeywords: keywords,
        relevanceFloor: floor,
      }).results[0];
      const scores = campaigns
        .filter(
          (c) =>
            !categories.includes(c.category!) &&
            !blockedAdvertisers.includes(c.advertiserId) &&
            !c.keywords.some((k) => keywords.includes(k)),
        )
        .map((c) => alone(c, sent))
        .filter((m) => m !== undefined && m.relevance >= floor)
        .map((m) => m.score);
      if (got === undefined) expect(scores).toEqual([]);
      else expect(got.score).toBeCloseTo(Math.max(...scores), 6);
    }
  });
});
