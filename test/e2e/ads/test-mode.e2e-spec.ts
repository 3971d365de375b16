import { Campaign } from '@/campaigns/entities/campaign.entity';
import { utcDay } from '@/common/clock';
import { FillStatsRecorder } from '@/earnings/fill-stats-recorder.service';
import { LedgerEntry } from '@/earnings/entities/ledger-entry.entity';
import { Click } from '@/tracking/entities/click.entity';
import { Impression } from '@/tracking/entities/impression.entity';
import type { SignedInPublisher } from '@test/factories';
import { ask, campaignLink, followAsBrowser, withoutClickId } from '@test/support/ads';
import { expectProblem } from '@test/support/problem';
import { startTestApp, TestApp } from '@test/support/test-app';
import { testDatabaseKind } from '@test/support/test-database';

interface Figures {
  impressions: number;
  clicks: number;
  ctr: number;
  earnings: number;
  test_impressions: number;
  test_clicks: number;
  viewed_impressions: number;
  view_rate: number;
  requests: number;
  fills: number;
  fill_rate: number | null;
  no_fills: Record<string, number>;
}

interface Ad {
  campaign_name: string;
  campaign_markdown: string;
  campaign_link: string;
  bid_per_click: number;
}

const DAY_MS = 86_400_000;

describe(`test mode: live and test keys (${testDatabaseKind()})`, () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  /** A signed-in publisher with its live key and a test key made through the API. */
  async function publisherWithTestKey(): Promise<SignedInPublisher & { testKey: string }> {
    const me = await t.f.signedInPublisher();
    const created = await me.api('POST', `/api/models/${me.model.id}/keys`, { kind: 'test' });
    expect(created.status).toBe(201);
    return { ...me, testKey: ((await created.json()) as { key: string }).key };
  }

  /** The model's totals in GET /api/stats from yesterday to tomorrow (UTC), whatever the hour. */
  async function totalsOf(me: SignedInPublisher): Promise<Figures> {
    // The requests' outcomes (a test key's count as `test`) are written every few seconds.
    await t.app.get(FillStatsRecorder).flush();
    const now = Date.now();
    const range = `from=${utcDay(new Date(now - DAY_MS))}&to=${utcDay(new Date(now + DAY_MS))}`;
    const response = await me.api('GET', `/api/stats?${range}&model_id=${me.model.id}`);
    expect(response.status).toBe(200);
    return ((await response.json()) as { totals: Figures }).totals;
  }

  const clicksOf = (campaignId: string) => t.dataSource.getRepository(Click).findBy({ campaignId });
  const ledgerOf = (campaignId: string) =>
    t.dataSource.getRepository(LedgerEntry).findBy({ campaignId });
  const spentOf = async (id: string) =>
    (await t.dataSource.getRepository(Campaign).findOneByOrFail({ id })).spentMicros;

  it('serves a test key a real ad whose link redirects (302) and bills nothing', async () => {
    const c = await t.f.campaign({
      keywords: 'kayak',
      bid: '0.40',
      targetUrl: 'https://shop.example/kayak',
    });
    const me = await publisherWithTestKey();

    const response = await t.fetchAds(me.testKey, ask('kayak'));

    expect(response.status).toBe(200);
    const [ad] = ((await response.json()) as { advertisements: Ad[] }).advertisements;
    expect(ad).toMatchObject({ campaign_name: c.name, bid_per_click: 0.4 });
    expect(ad.campaign_link.startsWith(`${t.baseUrl}/api/campaign_click?`)).toBe(true);
    expect(ad.campaign_markdown).toContain(ad.campaign_link);
    const [impression] = await t.dataSource
      .getRepository(Impression)
      .findBy({ campaignId: c.id, modelId: me.model.id });
    expect(impression.test).toBe(true);

    const followed = await followAsBrowser(ad.campaign_link);

    expect(followed.status).toBe(302);
    expect(withoutClickId(followed.headers.get('location'))).toBe('https://shop.example/kayak');
    expect(await clicksOf(c.id)).toEqual([
      expect.objectContaining({
        status: 'invalid',
        invalidReason: 'test',
        costMicros: 0,
        publisherEarningsMicros: 0,
      }),
    ]);
    expect(await spentOf(c.id)).toBe(0);
    expect(await ledgerOf(c.id)).toEqual([]);
    expect(await totalsOf(me)).toEqual({
      impressions: 0,
      clicks: 0,
      ctr: 0,
      earnings: 0,
      rpm: 0,
      test_impressions: 1,
      test_clicks: 1,
      viewed_impressions: 0,
      view_rate: 0,
      requests: 1,
      fills: 0,
      fill_rate: 0,
      no_fills: { test: 1 },
    });
  });

  it('keeps billing the live key of the same model as before, its figures apart from the test key’s', async () => {
    const c = await t.f.campaign({ keywords: 'paddle', bid: '0.50' });
    const me = await publisherWithTestKey();
    await followAsBrowser(await campaignLink(await t.fetchAds(me.testKey, ask('paddle'))));

    const live = await t.fetchAds(me.key, ask('paddle'));
    expect((await followAsBrowser(await campaignLink(live))).status).toBe(302);

    const clicks = await clicksOf(c.id);
    expect(clicks.map((k) => k.invalidReason ?? k.status).sort()).toEqual(['billed', 'test']);
    expect(await spentOf(c.id)).toBe(500_000);
    expect((await ledgerOf(c.id)).map((e) => [e.account, e.amountMicros]).sort()).toEqual([
      ['campaign_spend', 500_000],
      ['platform_revenue', 150_000],
      ['publisher_earnings', 350_000],
    ]);
    expect(await totalsOf(me)).toEqual({
      impressions: 1,
      clicks: 1,
      ctr: 1,
      earnings: 0.35,
      // 0.35 earned on 1 impression: 350 per 1,000.
      rpm: 350,
      test_impressions: 1,
      test_clicks: 1,
      viewed_impressions: 0,
      view_rate: 0,
      requests: 2,
      fills: 1,
      fill_rate: 0.5,
      no_fills: { test: 1 },
    });
  });

  it('never charges a budget: test clicks leave it whole, and a test ad clicked after the budget ran out is still only `test`', async () => {
    const c = await t.f.campaign({ keywords: 'snorkel', bid: '0.50', budgetTotal: '0.50' });
    const me = await publisherWithTestKey();
    for (let i = 0; i < 3; i++) {
      const link = await campaignLink(await t.fetchAds(me.testKey, ask('snorkel')));
      expect((await followAsBrowser(link)).status).toBe(302);
    }
    expect(await spentOf(c.id)).toBe(0);
    const testLink = await campaignLink(await t.fetchAds(me.testKey, ask('snorkel')));

    // The one click the budget pays for; the campaign stops being served.
    await followAsBrowser(await campaignLink(await t.fetchAds(me.key, ask('snorkel'))));
    expect(await spentOf(c.id)).toBe(500_000);
    await expectProblem(await t.fetchAds(me.testKey, ask('snorkel')), 404, 'no_matching_ad');

    expect((await followAsBrowser(testLink)).status).toBe(302);
    const clicks = await clicksOf(c.id);
    expect(clicks.filter((k) => k.invalidReason === 'test')).toHaveLength(4);
    expect(clicks.filter((k) => k.status === 'billed')).toHaveLength(1);
    expect(clicks.filter((k) => k.status === 'over_budget')).toHaveLength(0);
    expect(await spentOf(c.id)).toBe(500_000);
    expect(await ledgerOf(c.id)).toHaveLength(3);
    expect(await totalsOf(me)).toMatchObject({ clicks: 1, test_impressions: 4, test_clicks: 4 });
  });

  it('leaves test traffic out of the operator reports', async () => {
    const c = await t.f.campaign({ keywords: 'wetsuit' });
    const me = await publisherWithTestKey();
    await followAsBrowser(await campaignLink(await t.fetchAds(me.testKey, ask('wetsuit'))));
    const operator = await t.f.operator();
    const now = Date.now();
    const range = `from=${utcDay(new Date(now - DAY_MS))}&to=${utcDay(new Date(now + DAY_MS))}`;

    const models = await operator.api('GET', `/api/admin/reports/models?${range}`);
    const campaign = await operator.api('GET', `/api/admin/campaigns/${c.id}/stats?${range}`);

    const modelRows = ((await models.json()) as { rows: { model_id: string }[] }).rows;
    expect(modelRows.map((r) => r.model_id)).not.toContain(me.model.id);
    expect(await campaign.json()).toMatchObject({
      rows: [],
      totals: { impressions: 0, clicks: 0, invalid_clicks: 0, spend: 0 },
      spent: 0,
    });
  });

  it('stops a revoked test key like a live one', async () => {
    await t.f.campaign({ keywords: 'lifejacket' });
    const me = await publisherWithTestKey();
    const keys = (await (await me.api('GET', `/api/models/${me.model.id}/keys`)).json()) as {
      id: string;
      kind: string;
    }[];
    const testKeyId = keys.find((k) => k.kind === 'test')!.id;
    expect((await t.fetchAds(me.testKey, ask('lifejacket'))).status).toBe(200);

    await me.api('DELETE', `/api/models/${me.model.id}/keys/${testKeyId}`);

    await expectProblem(await t.fetchAds(me.testKey, ask('lifejacket')), 404, 'invalid_api_key');
  });
});
