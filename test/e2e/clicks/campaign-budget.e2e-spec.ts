import { CampaignIndexService } from '@/campaign-index/campaign-index.service';
import { CampaignBillingService } from '@/campaigns/billing/campaign-billing.service';
import { chargeClicks } from '@test/support/billing';
import { Campaign } from '@/campaigns/entities/campaign.entity';
import { utcDay } from '@/common/clock';
import { DailyStat } from '@/earnings/entities/daily-stat.entity';
import { LedgerEntry } from '@/earnings/entities/ledger-entry.entity';
import { Click } from '@/tracking/entities/click.entity';
import type { SignedIn } from '@test/factories';
import { ask, campaignLink, followAsBrowser } from '@test/support/ads';
import { expectProblem } from '@test/support/problem';
import { startTestApp, TestApp } from '@test/support/test-app';
import { testDatabaseKind } from '@test/support/test-database';

type Json = Record<string, unknown>;

/** Hundreds of requests per test; MariaDB serialises the clicks on the campaign's row. */
const LOAD_TIMEOUT_MS = 60_000;

/** Helpers shared by the suites below, bound to one running app. */
function harness(t: () => TestApp) {
  /** Serves an ad for `keywords` with `key` and returns its tracking link. */
  const serve = async (key: string, keywords: string): Promise<string> =>
    campaignLink(await t().fetchAds(key, ask(keywords)));

  async function createCampaign(operator: SignedIn, fields: Json): Promise<Json> {
    const advertiser = (await (
      await operator.api('POST', '/api/admin/advertisers', { name: 'Load Co' })
    ).json()) as Json;
    const response = await operator.api('POST', '/api/admin/campaigns', {
      advertiser_id: advertiser.id,
      name: 'Budgeted',
      text: 'Buy now.',
      target_url: 'https://shop.example/budget',
      ...fields,
    });
    expect(response.status).toBe(201);
    return (await response.json()) as Json;
  }

  const campaign = (id: string) => t().dataSource.getRepository(Campaign).findOneByOrFail({ id });

  return { serve, createCampaign, campaign };
}

describe(`budgets under load (${testDatabaseKind()})`, () => {
  let t: TestApp;
  let operator: SignedIn;
  const h = harness(() => t);

  beforeAll(async () => {
    t = await startTestApp({
      RATE_LIMIT_PER_MINUTE: '100000',
      CLICK_RATE_LIMIT_PER_MINUTE: '100000',
    });
    operator = await t.f.operator();
  });
  afterAll(() => t.close());

  it(
    'bills exactly 50 of 200 simultaneous valid clicks on a campaign whose budget pays for 50',
    async () => {
      const created = await h.createCampaign(operator, {
        keywords: ['rush hour'],
        bid_per_click: 0.37,
        budget_total: 18.5, // 50 × 0.37
      });
      const id = created.id as string;
      // Four publishers with shares that do not divide the bid evenly, 50 impressions each.
      const shares = [0.7, 0.333333, 0.5, 0.999999];
      const publishers = await Promise.all(
        shares.map((revenueShare) => t.f.publisherWithKey({ revenueShare })),
      );
      const links = await Promise.all(
        Array.from({ length: 200 }, (_, i) => h.serve(publishers[i % 4].key, 'rush hour')),
      );
      expect(new Set(links).size).toBe(200);

      const responses = await Promise.all(links.map((link) => followAsBrowser(link)));

      expect(responses.map((r) => r.status)).toEqual(Array(200).fill(302));
      const clicks = await t.dataSource.getRepository(Click).findBy({ campaignId: id });
      const count = (status: string) => clicks.filter((c) => c.status === status).length;
      expect(clicks).toHaveLength(200);
      expect(count('billed')).toBe(50);
      expect(count('over_budget')).toBe(150);
      expect(
        clicks.filter((c) => c.status === 'over_budget').every((c) => c.costMicros === 0),
      ).toBe(true);

      const spent = (await h.campaign(id)).spentMicros;
      expect(spent).toBe(18_500_000);

      const ledger = await t.dataSource.getRepository(LedgerEntry).findBy({ campaignId: id });
      const total = (account: string) =>
        ledger.filter((e) => e.account === account).reduce((sum, e) => sum + e.amountMicros, 0);
      expect(ledger.filter((e) => e.account === 'campaign_spend')).toHaveLength(50);
      expect(total('campaign_spend')).toBe(18_500_000);
      expect(total('publisher_earnings') + total('platform_revenue')).toBe(18_500_000);
      // Every billed click has its three entries, and only billed clicks have any.
      const billed = new Set(clicks.filter((c) => c.status === 'billed').map((c) => c.id));
      expect(new Set(ledger.map((e) => e.clickId))).toEqual(billed);
      for (const click of clicks.filter((c) => c.status === 'billed')) {
        const own = ledger.filter((e) => e.clickId === click.id);
        const amount = (account: string) => own.find((e) => e.account === account)?.amountMicros;
        expect(amount('campaign_spend')).toBe(370_000);
        expect((amount('publisher_earnings') ?? 0) + (amount('platform_revenue') ?? 0)).toBe(
          370_000,
        );
        expect(amount('publisher_earnings')).toBe(click.publisherEarningsMicros);
      }

      const rollup = await t.dataSource.getRepository(DailyStat).findBy({ campaignId: id });
      const rolled = (pick: (s: DailyStat) => number) =>
        rollup.reduce((sum, s) => sum + pick(s), 0);
      expect(rolled((s) => s.impressions)).toBe(200);
      expect(rolled((s) => s.clicks)).toBe(50);
      expect(rolled((s) => s.invalidClicks)).toBe(150);
      expect(rolled((s) => s.spendMicros)).toBe(18_500_000);
      expect(rolled((s) => s.earningsMicros)).toBe(total('publisher_earnings'));

      const today = utcDay(new Date());
      const report = (await (
        await operator.api('GET', `/api/admin/campaigns/${id}/stats?from=${today}&to=${today}`)
      ).json()) as Json;
      expect(report).toMatchObject({
        totals: { impressions: 200, clicks: 50, invalid_clicks: 150, spend: 18.5 },
        spent: 18.5,
        remaining_budget: 0,
      });
      // The spent campaign is no longer served.
      await expectProblem(
        await t.fetchAds(publishers[0].key, { conversation: 'hi', context_keywords: 'rush hour' }),
        404,
        'no_matching_ad',
      );
    },
    LOAD_TIMEOUT_MS,
  );

  it(
    'bills exactly as many simultaneous clicks as the daily budget pays for',
    async () => {
      const created = await h.createCampaign(operator, {
        keywords: ['daily rush'],
        bid_per_click: 0.25,
        budget_daily: 2.5, // 10 clicks a day
        budget_total: 100,
      });
      const id = created.id as string;
      const { key } = await t.f.publisherWithKey();
      const links = await Promise.all(Array.from({ length: 60 }, () => h.serve(key, 'daily rush')));

      await Promise.all(links.map((link) => followAsBrowser(link)));

      const clicks = await t.dataSource.getRepository(Click).findBy({ campaignId: id });
      expect(clicks.filter((c) => c.status === 'billed')).toHaveLength(10);
      expect(clicks.filter((c) => c.status === 'over_budget')).toHaveLength(50);
      expect(await h.campaign(id)).toMatchObject({
        spentMicros: 2_500_000,
        spentTodayMicros: 2_500_000,
        spentDay: utcDay(new Date()),
      });
    },
    LOAD_TIMEOUT_MS,
  );
});

describe(`daily budget reset at UTC midnight (${testDatabaseKind()})`, () => {
  let t: TestApp;
  let operator: SignedIn;
  const h = harness(() => t);

  beforeAll(async () => {
    t = await startTestApp();
    operator = await t.f.operator();
  });
  afterAll(() => t.close());

  it('charges up to the daily budget on one UTC day and starts again at midnight', async () => {
    const c = await t.f.campaign({ bid: '1', budgetDaily: '2', budgetTotal: '100' });
    const billing = t.app.get(CampaignBillingService);
    const charge = (...at: string[]) =>
      t.dataSource.transaction(async (manager) => {
        const charges = at.map((time) => ({
          campaignId: c.id,
          bidMicros: 1_000_000,
          at: new Date(time),
        }));
        const { results } = await chargeClicks(billing, manager, charges);
        return results.map((result) => result === 'billed');
      });

    // One batch across midnight: two fit the 9th's budget, the third not, the 10th's fits.
    expect(
      await charge(
        '2031-03-09T23:59:58.000Z',
        '2031-03-09T23:59:59.999Z',
        '2031-03-09T23:59:59.999Z',
        '2031-03-10T00:00:00.000Z',
      ),
    ).toEqual([true, true, false, true]);
    expect(await h.campaign(c.id)).toMatchObject({
      spentMicros: 3_000_000,
      spentTodayMicros: 1_000_000,
      spentDay: '2031-03-10',
    });
  });

  it('charges several campaigns in one batch, each within its own budget', async () => {
    const a = await t.f.campaign({ bid: '1', budgetTotal: '2' });
    const b = await t.f.campaign({ bid: '0.5', budgetDaily: '1', budgetTotal: '100' });
    // Today: whether a daily budget is exhausted is judged for the current UTC day.
    const at = new Date();
    const charge = (campaignId: string, bidMicros: number) => ({ campaignId, bidMicros, at });
    const outcome = await t.dataSource.transaction((manager) =>
      chargeClicks(t.app.get(CampaignBillingService), manager, [
        charge(a.id, 1_000_000),
        charge(b.id, 500_000),
        charge(a.id, 1_000_000),
        charge(b.id, 500_000),
        charge(a.id, 1_000_000),
        charge(b.id, 500_000),
      ]),
    );
    expect(outcome.results).toEqual([
      'billed',
      'billed',
      'billed',
      'billed',
      'over_budget',
      'over_budget',
    ]);
    expect(outcome.exhausted.sort()).toEqual([a.id, b.id].sort());
    expect(await h.campaign(a.id)).toMatchObject({ spentMicros: 2_000_000 });
    expect(await h.campaign(b.id)).toMatchObject({
      spentMicros: 1_000_000,
      spentTodayMicros: 1_000_000,
      spentDay: utcDay(at),
    });
  });

  it('serves a campaign whose daily budget ran out again once the UTC day has changed', async () => {
    const created = await h.createCampaign(operator, {
      keywords: ['night owl'],
      bid_per_click: 1,
      budget_daily: 1,
      budget_total: 10,
    });
    const id = created.id as string;
    const { key } = await t.f.publisherWithKey();
    const first = await h.serve(key, 'night owl');
    const second = await h.serve(key, 'night owl');
    await followAsBrowser(first);
    await expectProblem(
      await t.fetchAds(key, { conversation: 'hi', context_keywords: 'night owl' }),
      404,
      'no_matching_ad',
    );
    await followAsBrowser(second);
    const statuses = async () =>
      (await t.dataSource.getRepository(Click).findBy({ campaignId: id }))
        .map((k) => k.status)
        .sort();
    expect(await statuses()).toEqual(['billed', 'over_budget']);

    // The day's spend was yesterday's: what the campaign looks like just after midnight UTC.
    const yesterday = utcDay(new Date(Date.now() - 86_400_000));
    await t.dataSource.getRepository(Campaign).update({ id }, { spentDay: yesterday });
    // What the index does at its first periodic refresh after midnight: it knows when the
    // day ends, and rebuilds then without asking the probe (which no clock moves).
    await t.app.get(CampaignIndexService).rebuild();

    expect(
      (await t.fetchAds(key, { conversation: 'hi', context_keywords: 'night owl' })).status,
    ).toBe(200);
    await followAsBrowser(await h.serve(key, 'night owl'));
    expect(await statuses()).toEqual(['billed', 'billed', 'over_budget']);
    expect(await h.campaign(id)).toMatchObject({
      spentMicros: 2_000_000,
      spentTodayMicros: 1_000_000,
      spentDay: utcDay(new Date()),
    });
  });
});
