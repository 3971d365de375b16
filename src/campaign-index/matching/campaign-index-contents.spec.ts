import {
  buildCampaignIndex,
  CampaignIndexBuilder,
} from '@/campaign-index/matching/campaign-index-builder';
import { campaign, request, UNIT } from '@test/support/campaign-index';

describe('CampaignIndex', () => {
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

    it("gives back each campaign's advertiser and category, whichever rank it ends at", () => {
      const campaigns = Array.from({ length: 300 }, (_, index) =>
        campaign([`k${index % 7}`], {
          advertiserId: `advertiser-${index % 11}`,
          category: index % 3 === 0 ? null : ['596', 'JLBCU7', 'v9i3On'][(index % 5) % 3],
          bidMicros: ((index * 37) % 101) * 10_000,
        }),
      );
      const index = buildCampaignIndex(campaigns);
      for (const held of campaigns) {
        expect(index.get(held.id)).toMatchObject({
          advertiserId: held.advertiserId,
          category: held.category,
        });
      }
      expect(index.match(request('k1'))?.campaign).toMatchObject({
        advertiserId: expect.stringMatching(/^advertiser-/) as string,
      });
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
      const lifted = campaign(['ai', 'robots'], { bidMicros: 3 * UNIT });
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
});
