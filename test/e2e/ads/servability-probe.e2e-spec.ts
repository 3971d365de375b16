import { CampaignIndexService } from '@/campaign-index/campaign-index.service';
import { CampaignBillingService } from '@/campaigns/billing/campaign-billing.service';
import { chargeClicks } from '@test/support/billing';
import { CampaignChangeNotifier } from '@/campaigns/change-notices/campaign-change-notifier.service';
import {
  type ServabilityProbe,
  ServableCampaignsReader,
} from '@/campaigns/campaigns/servable-campaigns.reader';
import type { PublisherWithKey, SignedIn } from '@test/factories';
import { ask, campaignLink, followAsBrowser } from '@test/support/ads';
import { type Instance, startAnotherInstance } from '@test/support/another-instance';
import { body, campaignCalls, type Json, operatorWithAdvertiser } from '@test/support/operator-api';
import { startTestApp, TestApp } from '@test/support/test-app';
import { testDatabaseKind } from '@test/support/test-database';

/**
 * The ad index's periodic refresh rebuilds only when the servability probe moves, and the
 * probe reads one row that every change which can alter the servable snapshot adds to in
 * its own transaction. Here this process's index is made deaf to change notices, as another
 * instance without Redis is: whatever it learns, it learns from the probe.
 */
describe(`the ad index's servability probe (${testDatabaseKind()})`, () => {
  let t: TestApp;
  let operator: SignedIn;
  let advertiserId: string;
  let publisher: PublisherWithKey;

  beforeAll(async () => {
    // The periodic refresh is an hour away: the tests call it themselves.
    t = await startTestApp({ CAMPAIGN_INDEX_REFRESH_SECONDS: '3600' });
    ({ operator, advertiserId } = await operatorWithAdvertiser(t));
    publisher = await t.f.publisherWithKey();
  });
  afterAll(() => t.close());
  afterEach(() => jest.restoreAllMocks());
  jest.setTimeout(60_000);

  const { create, patch } = campaignCalls(() => ({ t, operator, advertiserId }));
  const probe = (): Promise<ServabilityProbe> =>
    t.app.get(ServableCampaignsReader).probe(new Date());
  const index = () => t.app.get(CampaignIndexService);
  const served = (id: unknown) => index().served(String(id)) !== undefined;
  const adStatus = async (keyword: string) =>
    (await t.fetchAds(publisher.key, ask(keyword))).status;

  /**
   * Rebuilds the index now (a fresh start for the test: no exclusions), then stops it from
   * hearing this process's change notices. Returns how many snapshot reads (rebuilds) the
   * test's `refresh()` calls cause.
   */
  async function deafIndex(): Promise<() => number> {
    await index().rebuild();
    const notifier = t.app.get(CampaignChangeNotifier);
    jest.spyOn(notifier, 'notifyChanged').mockResolvedValue(undefined);
    jest.spyOn(notifier, 'notifyExhausted').mockResolvedValue(undefined);
    const reads = jest.spyOn(t.app.get(ServableCampaignsReader), 'readServable');
    return () => reads.mock.calls.length;
  }

  /** Charges one click at the campaign's bid straight through billing, as another instance's click batch does. */
  const chargeClick = (campaignId: string, bidMicros: number) =>
    t.dataSource.transaction((manager) =>
      chargeClicks(t.app.get(CampaignBillingService), manager, [
        { campaignId, bidMicros, at: new Date() },
      ]),
    );

  it('reads one row by its primary key, never the campaigns table', async () => {
    await t.f.campaign({ keywords: 'one of many' });
    const logQuery = jest.spyOn(t.dataSource.logger, 'logQuery');

    await probe();

    const statements = logQuery.mock.calls.map(([sql, parameters]) => ({ sql, parameters }));
    expect(statements).toHaveLength(1);
    const [{ sql, parameters }] = statements;
    expect(sql).toMatch(/FROM [`"]servability_version[`"]/);
    expect(sql).not.toMatch(/campaigns|advertisers|campaign_audit/);
    // The database's own plan: a lookup of one row by the primary key.
    if (testDatabaseKind() === 'mysql') {
      const plan: Json[] = await t.dataSource.query(`EXPLAIN ${sql}`, parameters);
      expect(plan.map(({ type, key, rows }) => ({ type, key, rows: Number(rows) }))).toEqual([
        { type: 'const', key: 'PRIMARY', rows: 1 },
      ]);
    } else {
      const plan: Json[] = await t.dataSource.query(`EXPLAIN QUERY PLAN ${sql}`, parameters);
      expect(plan.map((step) => step.detail)).toEqual([
        expect.stringMatching(/^SEARCH .* USING INTEGER PRIMARY KEY/),
      ]);
    }
  });

  it('a campaign created elsewhere moves it, and the refresh serves the campaign', async () => {
    const rebuilds = await deafIndex();
    const before = await probe();

    await create({ keywords: ['created elsewhere'] });

    const after = await probe();
    expect(after.other).not.toBe(before.other);
    expect(after.exhausted).toBe(before.exhausted);
    expect(await adStatus('created elsewhere')).toBe(404);
    await index().refresh();
    expect(rebuilds()).toBe(1);
    expect(await adStatus('created elsewhere')).toBe(200);
  });

  const edits: [string, Json][] = [
    ['status', { status: 'paused' }],
    ['bid', { bid_per_click: 0.4 }],
    ['total budget', { budget_total: 20 }],
    ['daily budget', { budget_daily: 2 }],
    ['schedule', { ends_at: '2099-01-01T00:00:00Z' }],
    ['keywords', { keywords: ['other words'] }],
    ['keyword translations', { keyword_translations: { 'edited here': ['ici édité'] } }],
    ['text', { text: 'Now with laces.' }],
    ['target', { target_url: 'https://shop.example/elsewhere' }],
    ['targeting', { countries: ['DE'] }],
  ];
  it.each(edits)('an edit of its %s moves it, and the refresh rebuilds', async (_, changes) => {
    const created = await create({ keywords: ['edited here'], budget_total: 10 });
    const rebuilds = await deafIndex();
    const before = await probe();

    await body(await patch(created.id, changes), 200);

    const after = await probe();
    expect(after.other).not.toBe(before.other);
    expect(after.exhausted).toBe(before.exhausted);
    await index().refresh();
    expect(rebuilds()).toBe(1);
  });

  it('a pause reaches the index through the refresh alone', async () => {
    const created = await create({ keywords: ['paused elsewhere'] });
    await deafIndex();
    expect(served(created.id)).toBe(true);

    await body(await patch(created.id, { status: 'paused' }), 200);

    expect(served(created.id)).toBe(true);
    await index().refresh();
    expect(served(created.id)).toBe(false);
  });

  it('an edit that changes nothing, or is refused, leaves it as it was', async () => {
    const created = await create({ keywords: ['unchanged'], bid_per_click: 0.35 });
    const rebuilds = await deafIndex();
    const before = await probe();

    await body(await patch(created.id, { bid_per_click: 0.35, keywords: ['unchanged'] }), 200);
    expect((await patch(created.id, { bid_per_click: -1 })).status).toBe(400);

    expect(await probe()).toEqual(before);
    await index().refresh();
    expect(rebuilds()).toBe(0);
  });

  it("an advertiser's status moves it; its name does not", async () => {
    const advertiser = await body(
      await operator.api('POST', '/api/admin/advertisers', { name: 'Switch Co' }),
      201,
    );
    const path = `/api/admin/advertisers/${String(advertiser.id)}`;
    const created = await create({ advertiser_id: advertiser.id, keywords: ['switched off'] });
    const rebuilds = await deafIndex();
    const before = await probe();

    await body(await operator.api('PATCH', path, { name: 'Switch & Co' }), 200);
    expect(await probe()).toEqual(before);

    await body(await operator.api('PATCH', path, { status: 'inactive' }), 200);
    const after = await probe();
    expect(after.other).not.toBe(before.other);
    expect(after.exhausted).toBe(before.exhausted);
    expect(served(created.id)).toBe(true);
    await index().refresh();
    expect(rebuilds()).toBe(1);
    expect(served(created.id)).toBe(false);
  });

  it('billed clicks that leave budget room, and the ads served before them, leave it as it was', async () => {
    const created = await create({
      keywords: ['room left'],
      bid_per_click: 0.35,
      budget_total: 10,
    });
    const rebuilds = await deafIndex();
    const before = await probe();

    for (let i = 0; i < 3; i++) {
      const response = await followAsBrowser(
        await campaignLink(await t.fetchAds(publisher.key, ask('room left'))),
      );
      expect(response.status).toBe(302);
    }

    expect(
      (await body(await operator.api('GET', `/api/admin/campaigns/${String(created.id)}`))).spent,
    ).toBe(1.05);
    expect(await probe()).toEqual(before);
    await index().refresh();
    expect(rebuilds()).toBe(0);
  });

  it('a budget running out in a click batch written elsewhere counts once, and the refresh drops the campaign', async () => {
    const total = await create({
      keywords: ['spent elsewhere'],
      bid_per_click: 0.5,
      budget_total: 1,
    });
    const daily = await create({
      keywords: ['spent today elsewhere'],
      bid_per_click: 0.5,
      budget_daily: 0.5,
      budget_total: 10,
    });
    const rebuilds = await deafIndex();
    const before = await probe();

    // Room for one more click after the first: nothing ran out yet.
    expect((await chargeClick(String(total.id), 500_000)).exhausted).toEqual([]);
    expect(await probe()).toEqual(before);

    expect((await chargeClick(String(total.id), 500_000)).exhausted).toEqual([total.id]);
    expect((await chargeClick(String(daily.id), 500_000)).exhausted).toEqual([daily.id]);
    const after = await probe();
    expect(after).toEqual({ ...before, exhausted: before.exhausted + 2 });

    // Clicks on a campaign that has already run out are unbilled and count nothing more.
    expect((await chargeClick(String(total.id), 500_000)).results).toEqual(['over_budget']);
    expect(await probe()).toEqual(after);

    expect(served(total.id)).toBe(true);
    await index().refresh();
    expect(rebuilds()).toBe(1);
    expect(served(total.id)).toBe(false);
    expect(served(daily.id)).toBe(false);
  });

  it('a budget running out on a click here counts once, and the refresh need not rebuild: the notice dropped it', async () => {
    const created = await create({
      keywords: ['spent here'],
      bid_per_click: 0.5,
      budget_total: 0.5,
    });
    await index().rebuild();
    const reads = jest.spyOn(t.app.get(ServableCampaignsReader), 'readServable');
    const before = await probe();

    const link = await campaignLink(await t.fetchAds(publisher.key, ask('spent here')));
    expect((await followAsBrowser(link)).status).toBe(302);

    expect(served(created.id)).toBe(false);
    expect(await probe()).toEqual({ ...before, exhausted: before.exhausted + 1 });
    await index().refresh();
    expect(reads).not.toHaveBeenCalled();
  });
});

describe(`the servability probe across instances (${testDatabaseKind()})`, () => {
  let first: TestApp;
  let second: Instance;

  beforeAll(async () => {
    // No Redis: the first instance hears nothing the second does, except through the probe.
    first = await startTestApp({ CAMPAIGN_INDEX_REFRESH_SECONDS: '3600' });
    second = await startAnotherInstance(first, { CAMPAIGN_INDEX_REFRESH_SECONDS: '3600' });
  });
  afterAll(async () => {
    await second.close();
    await first.close();
  });
  jest.setTimeout(60_000);

  it("moves with changes made through another instance's API, and the refresh serves them", async () => {
    const operator = await first.f.operator();
    const { key } = await first.f.publisherWithKey();
    const onSecond = (method: string, path: string, payload?: unknown) =>
      fetch(`${second.baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${operator.token}`, 'content-type': 'application/json' },
        body: payload === undefined ? undefined : JSON.stringify(payload),
      });
    const probe = () => first.app.get(ServableCampaignsReader).probe(new Date());
    const index = first.app.get(CampaignIndexService);
    const status = async () => (await first.fetchAds(key, ask('next door'))).status;

    const advertiser = await body(
      await onSecond('POST', '/api/admin/advertisers', { name: 'Next Door' }),
      201,
    );
    const before = await probe();
    const campaign = await body(
      await onSecond('POST', '/api/admin/campaigns', {
        advertiser_id: advertiser.id,
        name: 'Next door',
        text: 'Made on the other instance.',
        target_url: 'https://shop.example/next-door',
        keywords: ['next door'],
        bid_per_click: 0.2,
      }),
      201,
    );
    const created = await probe();
    expect(created.other).not.toBe(before.other);
    expect(await status()).toBe(404);
    await index.refresh();
    expect(await status()).toBe(200);

    await body(
      await onSecond('PATCH', `/api/admin/campaigns/${String(campaign.id)}`, { status: 'paused' }),
      200,
    );
    expect((await probe()).other).not.toBe(created.other);
    expect(await status()).toBe(200);
    await index.refresh();
    expect(await status()).toBe(404);
  });
});
