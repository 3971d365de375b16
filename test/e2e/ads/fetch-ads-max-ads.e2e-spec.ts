import { Campaign } from '@/campaigns/entities/campaign.entity';
import { Click } from '@/tracking/entities/click.entity';
import { Impression } from '@/tracking/entities/impression.entity';
import { followAsBrowser } from '@test/support/ads';
import { expectProblem } from '@test/support/problem';
import { startTestApp, TestApp } from '@test/support/test-app';
import { testDatabaseKind } from '@test/support/test-database';

interface Ad {
  campaign_name: string;
  campaign_link: string;
  receipt: string;
  bid_per_click: number;
}

let topic = 0;

describe(`fetch-ads with max_ads: several ads of distinct advertisers (${testDatabaseKind()})`, () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_PER_MINUTE: '100000' });
  });
  afterAll(() => t.close());

  /** Four campaigns on a keyword of their own, from three advertisers: A twice, B, C. */
  async function campaigns() {
    topic += 1;
    const keyword = `widget${topic}`;
    const a = await t.f.campaign({ keywords: keyword, bid: '4.00' });
    const a2 = await t.f.campaign({ keywords: keyword, bid: '3.00', advertiserId: a.advertiserId });
    const b = await t.f.campaign({ keywords: keyword, bid: '2.00' });
    const c = await t.f.campaign({ keywords: keyword, bid: '1.00' });
    return { keyword, a, a2, b, c };
  }

  async function ads(key: string, keyword: string, extra: object = {}): Promise<Ad[]> {
    const response = await t.fetchAds(key, {
      conversation: 'Any advice?',
      context_keywords: keyword,
      ...extra,
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { advertisements: Ad[] }).advertisements;
  }

  it('max_ads 3 answers the best campaign of each of 3 advertisers, each its own impression, link and billed click', async () => {
    const { keyword, a, b, c } = await campaigns();
    const { key, model } = await t.f.publisherWithKey();
    const served = await ads(key, keyword, { max_ads: 3 });
    expect(served.map((ad) => ad.campaign_name)).toEqual([a.name, b.name, c.name]);
    expect(new Set(served.map((ad) => ad.campaign_link)).size).toBe(3);
    expect(new Set(served.map((ad) => ad.receipt)).size).toBe(3);
    const impressions = await t.dataSource.getRepository(Impression).findBy({ modelId: model.id });
    expect(impressions.map((i) => i.campaignId).sort()).toEqual([a.id, b.id, c.id].sort());

    for (const ad of served) expect((await followAsBrowser(ad.campaign_link)).status).toBe(302);
    const clicks = await t.dataSource.getRepository(Click).findBy({ modelId: model.id });
    expect(clicks).toHaveLength(3);
    expect(clicks.every((click) => click.status === 'billed')).toBe(true);
    const spent = async (id: string) =>
      (await t.dataSource.getRepository(Campaign).findOneByOrFail({ id })).spentMicros;
    expect([await spent(a.id), await spent(b.id), await spent(c.id)]).toEqual([
      4_000_000, 2_000_000, 1_000_000,
    ]);
  });

  it('answers fewer when fewer advertisers match, and one without max_ads', async () => {
    const { keyword, a, b } = await campaigns();
    const { key } = await t.f.publisherWithKey();
    expect((await ads(key, keyword, { max_ads: 2 })).map((ad) => ad.campaign_name)).toEqual([
      a.name,
      b.name,
    ]);
    expect((await ads(key, keyword)).map((ad) => ad.campaign_name)).toEqual([a.name]);
    const me = await t.f.signedInPublisher();
    const controls = { blocked_advertisers: [b.advertiserId] };
    expect((await me.api('PUT', `/api/models/${me.model.id}/controls`, controls)).status).toBe(200);
    const two = await ads(me.key, keyword, { max_ads: 3 });
    expect(two).toHaveLength(2);
  });

  it('the frequency cap counts each ad, and leaves the session the ads left under it', async () => {
    const { keyword } = await campaigns();
    const me = await t.f.signedInPublisher();
    const controls = { frequency_cap: { max_ads: 4, per_minutes: 60 } };
    expect((await me.api('PUT', `/api/models/${me.model.id}/controls`, controls)).status).toBe(200);
    const session = { max_ads: 3, session_id: `s-${topic}` };
    expect(await ads(me.key, keyword, session)).toHaveLength(3);
    expect(await ads(me.key, keyword, session)).toHaveLength(1);
    const over = await t.fetchAds(me.key, {
      conversation: 'Hi',
      context_keywords: keyword,
      ...session,
    });
    expect(await expectProblem(over, 404, 'no_matching_ad')).toMatchObject({
      reason: 'frequency_cap',
    });
  });

  it('refuses max_ads outside 1–3 or not an integer', async () => {
    const { key } = await t.f.publisherWithKey();
    for (const maxAds of [0, 4, 1.5, '2']) {
      const response = await t.fetchAds(key, {
        conversation: 'Hi',
        context_keywords: 'laptop',
        max_ads: maxAds,
      });
      const problem = await expectProblem(response, 400, 'validation_failed');
      expect(JSON.stringify(problem)).toContain('max_ads');
    }
  });
});
