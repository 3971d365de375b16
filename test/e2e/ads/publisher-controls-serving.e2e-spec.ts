import { utcDay } from '@/common/clock';
import { FillStatsRecorder } from '@/earnings/fill-stats-recorder.service';
import type { SignedInPublisher } from '@test/factories';
import { impressionsOf } from '@test/support/ads';
import { expectProblem } from '@test/support/problem';
import { startTestApp, TestApp } from '@test/support/test-app';
import { testDatabaseKind } from '@test/support/test-database';

interface Ad {
  campaign_name: string;
  campaign_link: string;
}

let topic = 0;

describe(`fetch-ads applies the publisher's controls (${testDatabaseKind()})`, () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_PER_MINUTE: '100000' });
  });
  afterAll(() => t.close());

  /**
   * Three campaigns on a keyword of their own, best first: an electronics one (category
   * 596) at 3.00, a travel one (653) that also targets "deals" at 2.00, and one without a
   * category that also targets two more keywords (less relevant) at 1.50.
   */
  async function threeCampaigns() {
    topic += 1;
    const keyword = `gadget${topic}`;
    const best = await t.f.campaign({ keywords: keyword, bid: '3.00', category: '596' });
    const second = await t.f.campaign({
      keywords: `${keyword}, deals`,
      bid: '2.00',
      category: '653',
    });
    const third = await t.f.campaign({
      keywords: `${keyword}, other${topic}, more${topic}`,
      bid: '1.50',
    });
    return { keyword, best, second, third };
  }

  const setControls = async (me: SignedInPublisher, controls: object) =>
    expect((await me.api('PUT', `/api/models/${me.model.id}/controls`, controls)).status).toBe(200);

  async function served(me: SignedInPublisher, keyword: string, extra: object = {}) {
    const response = await t.fetchAds(me.key, {
      conversation: 'Any advice on which one to buy?',
      context_keywords: keyword,
      ...extra,
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { advertisements: Ad[] }).advertisements;
  }

  async function noFills(reason: string): Promise<number> {
    const text = await (await t.http('/metrics')).text();
    const line = new RegExp(`^adline_ad_no_fill_total\\{reason="${reason}"\\} (\\d+)$`, 'm');
    return Number(line.exec(text)?.[1] ?? 0);
  }

  async function noFillStats(me: SignedInPublisher): Promise<Record<string, number>> {
    await t.app.get(FillStatsRecorder).flush();
    const today = utcDay(new Date());
    const response = await me.api('GET', `/api/stats?from=${today}&to=${today}`);
    expect(response.status).toBe(200);
    return ((await response.json()) as { totals: { no_fills: Record<string, number> } }).totals
      .no_fills;
  }

  it('serves as before with default controls', async () => {
    const { keyword, best } = await threeCampaigns();
    const me = await t.f.signedInPublisher();
    expect((await served(me, keyword)).map((ad) => ad.campaign_name)).toEqual([best.name]);
  });

  it('a blocked category, advertiser or keyword serves the next best', async () => {
    const { keyword, best, second, third } = await threeCampaigns();
    const me = await t.f.signedInPublisher();
    await setControls(me, { blocked_categories: ['596'] });
    expect((await served(me, keyword))[0].campaign_name).toBe(second.name);
    await setControls(me, { blocked_advertisers: [best.advertiserId] });
    expect((await served(me, keyword))[0].campaign_name).toBe(second.name);
    // "deals" was not asked for, but the second campaign targets it.
    await setControls(me, { blocked_categories: ['596'], blocked_keywords: ['DEALS'] });
    expect((await served(me, keyword))[0].campaign_name).toBe(third.name);
  });

  it('everything blocked: 404 no_matching_ad, reason blocked, no impression, counted', async () => {
    const { keyword, third } = await threeCampaigns();
    const me = await t.f.signedInPublisher();
    await setControls(me, {
      blocked_categories: ['596', '653'],
      blocked_advertisers: [third.advertiserId],
    });
    const before = await noFills('blocked');
    const response = await t.fetchAds(me.key, { conversation: 'Hi', context_keywords: keyword });
    expect(await expectProblem(response, 404, 'no_matching_ad')).toMatchObject({
      reason: 'blocked',
    });
    expect(await impressionsOf(t, me.model.id)).toBe(0);
    expect(await noFills('blocked')).toBe(before + 1);
    expect(await noFillStats(me)).toEqual({ blocked: 1 });
  });

  it('the relevance floor passes over less relevant campaigns, else 404 relevance_floor', async () => {
    const { keyword, third } = await threeCampaigns();
    const me = await t.f.signedInPublisher();
    await setControls(me, { blocked_categories: ['596', '653'] });
    expect((await served(me, keyword))[0].campaign_name).toBe(third.name);
    await setControls(me, { blocked_categories: ['596', '653'], relevance_floor: 0.9 });
    const before = await noFills('relevance_floor');
    const response = await t.fetchAds(me.key, {
      conversation: 'Which one should I buy?',
      context_keywords: keyword,
    });
    expect(await expectProblem(response, 404, 'no_matching_ad')).toMatchObject({
      reason: 'relevance_floor',
    });
    expect(await noFills('relevance_floor')).toBe(before + 1);
    expect(await noFillStats(me)).toEqual({ relevance_floor: 1 });
    // Fully relevant when every keyword is asked for.
    const all = await served(me, `${keyword}, other${topic}, more${topic}`);
    expect(all[0].campaign_name).toBe(third.name);
  });

  it('excluded_topics keeps categories away from one request only', async () => {
    const { keyword, best, second, third } = await threeCampaigns();
    const me = await t.f.signedInPublisher();
    const excluding = (topics: string[]) => served(me, keyword, { excluded_topics: topics });
    expect((await excluding(['596']))[0].campaign_name).toBe(second.name);
    expect((await excluding(['596', '653']))[0].campaign_name).toBe(third.name);
    expect((await served(me, keyword))[0].campaign_name).toBe(best.name);
    // Added to the model's own blocks.
    await setControls(me, { blocked_advertisers: [third.advertiserId] });
    const response = await t.fetchAds(me.key, {
      conversation: 'Hi',
      context_keywords: keyword,
      excluded_topics: ['596', '653'],
    });
    expect(await expectProblem(response, 404, 'no_matching_ad')).toMatchObject({
      reason: 'blocked',
    });
  });

  it('refuses excluded_topics that are not tier-1 IAB ids, or too many', async () => {
    const me = await t.f.signedInPublisher();
    for (const excluded of [['nope'], 'JLBCU7', [1], Array.from({ length: 51 }, () => '596')]) {
      const response = await t.fetchAds(me.key, {
        conversation: 'Hi',
        context_keywords: 'laptop',
        excluded_topics: excluded,
      });
      const problem = await expectProblem(response, 400, 'validation_failed');
      expect(JSON.stringify(problem)).toContain('excluded_topics');
    }
  });

  describe('the frequency cap', () => {
    const capped = async (maxAds: number) => {
      const { keyword } = await threeCampaigns();
      const me = await t.f.signedInPublisher();
      await setControls(me, { frequency_cap: { max_ads: maxAds, per_minutes: 60 } });
      const call = (extra: object) =>
        t.fetchAds(me.key, { conversation: 'Hi', context_keywords: keyword, ...extra });
      return { me, call };
    };

    it('the (max + 1)th ad of a session in the window answers 404 frequency_cap; another session is unaffected', async () => {
      const { me, call } = await capped(2);
      const before = await noFills('frequency_cap');
      expect((await call({ session_id: 'session-a' })).status).toBe(200);
      expect((await call({ session_id: 'session-a' })).status).toBe(200);
      const over = await call({ session_id: 'session-a' });
      expect(await expectProblem(over, 404, 'no_matching_ad')).toMatchObject({
        reason: 'frequency_cap',
      });
      expect((await call({ session_id: 'session-b' })).status).toBe(200);
      expect(await impressionsOf(t, me.model.id)).toBe(3);
      expect(await noFills('frequency_cap')).toBe(before + 1);
      expect(await noFillStats(me)).toEqual({ frequency_cap: 1 });
    });

    it('does not apply without session_id', async () => {
      const { call } = await capped(1);
      for (let i = 0; i < 3; i++) expect((await call({})).status).toBe(200);
    });

    it('counts per model: the same session id of another model is another session', async () => {
      const first = await capped(1);
      const second = await capped(1);
      expect((await first.call({ session_id: 'shared' })).status).toBe(200);
      expect((await second.call({ session_id: 'shared' })).status).toBe(200);
      expect((await first.call({ session_id: 'shared' })).status).toBe(404);
    });

    it('refuses a session_id that is empty, too long or not a string', async () => {
      const me = await t.f.signedInPublisher();
      for (const sessionId of ['', 'x'.repeat(129), 42]) {
        const response = await t.fetchAds(me.key, {
          conversation: 'Hi',
          context_keywords: 'laptop',
          session_id: sessionId,
        });
        const problem = await expectProblem(response, 400, 'validation_failed');
        expect(JSON.stringify(problem)).toContain('session_id');
      }
    });
  });
});
