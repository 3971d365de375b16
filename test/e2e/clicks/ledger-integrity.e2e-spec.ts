import { Campaign } from '@/campaigns/entities/campaign.entity';
import { utcDay } from '@/common/clock';
import { unitsToMicros } from '@/common/money';
import { DailyStat } from '@/earnings/entities/daily-stat.entity';
import { LedgerEntry } from '@/earnings/entities/ledger-entry.entity';
import { Click } from '@/tracking/entities/click.entity';
import { Impression } from '@/tracking/entities/impression.entity';
import type { SignedInPublisher } from '@test/factories';
import { ask, campaignLink, followAsBrowser } from '@test/support/ads';
import { startTestApp, TestApp } from '@test/support/test-app';
import { testDatabaseKind } from '@test/support/test-database';

type Json = Record<string, unknown>;
type Figures = Record<string, number>;

const BOT_UA = 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)';

/** Sums `amount` over the rows that pass `where`. */
const sumOf = <T>(rows: T[], amount: (row: T) => number, where: (row: T) => boolean = () => true) =>
  rows.filter(where).reduce((total, row) => total + amount(row), 0);

describe(`ledger integrity after mixed traffic (${testDatabaseKind()})`, () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({
      RATE_LIMIT_PER_MINUTE: '100000',
      CLICK_RATE_LIMIT_PER_MINUTE: '100000',
    });
  });
  afterAll(() => t.close());

  it('credits + platform revenue = spend = campaigns.spent, and /api/stats and every report say the same', async () => {
    // Shares that do not divide the bids evenly, so rounding is exercised.
    const publishers: SignedInPublisher[] = [];
    for (const revenueShare of [0.7, 0.333333, 0.999999]) {
      publishers.push(await t.f.signedInPublisher({ revenueShare }));
    }
    const unlimited = await t.f.campaign({ keywords: 'alpha', bid: '0.37' });
    const capped = await t.f.campaign({ keywords: 'beta', bid: '0.41', budgetTotal: '1.23' }); // 3 clicks
    const daily = await t.f.campaign({
      keywords: 'gamma',
      bid: '1.000001',
      budgetDaily: '2.000002',
    }); // 2 a day
    const idle = await t.f.campaign({ keywords: 'delta', bid: '0.05' }); // impressions only
    const campaignIds = [unlimited.id, capped.id, daily.id, idle.id];

    // Impressions: every publisher is served every campaign three times.
    const links: Record<string, string[]> = {};
    for (const p of publishers) {
      for (const keyword of ['alpha', 'beta', 'gamma', 'delta']) {
        for (let i = 0; i < 3; i++) {
          (links[keyword] ??= []).push(await campaignLink(await t.fetchAds(p.key, ask(keyword))));
        }
      }
    }

    const follows: Promise<Response>[] = [];
    // Valid clicks on the unlimited campaign, then each followed again (repeated).
    for (const link of links.alpha.slice(0, 6)) await followAsBrowser(link);
    for (const link of links.alpha.slice(0, 3)) follows.push(followAsBrowser(link));
    // Forged: a bad signature, and a link pointed at another model.
    const forged = new URL(links.alpha[6]);
    forged.searchParams.set('sig', 'AAAAAAAAAAAAAAAAAAAAAA');
    follows.push(followAsBrowser(forged.toString()));
    const otherModel = new URL(links.alpha[7]);
    otherModel.searchParams.set('model_id', publishers[0].model.id);
    follows.push(followAsBrowser(otherModel.toString()));
    // A known bot.
    follows.push(fetch(links.alpha[8], { redirect: 'manual', headers: { 'user-agent': BOT_UA } }));
    // Over budget: nine clicks each for a total budget of three and a daily budget of two.
    for (const link of [...links.beta, ...links.gamma]) follows.push(followAsBrowser(link));
    const responses = await Promise.all(follows);
    expect(responses.every((r) => r.status === 302)).toBe(true);

    const ledger = await t.dataSource.getRepository(LedgerEntry).find();
    const clicks = await t.dataSource.getRepository(Click).find();
    const impressions = await t.dataSource.getRepository(Impression).find();
    const campaigns = await t.dataSource.getRepository(Campaign).find();
    const rollups = await t.dataSource.getRepository(DailyStat).find();
    const entries = (account: string, where: (e: LedgerEntry) => boolean = () => true) =>
      sumOf(
        ledger,
        (e) => e.amountMicros,
        (e) => e.account === account && where(e),
      );

    // The traffic was what it was meant to be.
    const billed = clicks.filter((c) => c.status === 'billed');
    expect(billed).toHaveLength(6 + 3 + 2);
    expect(clicks.filter((c) => c.status === 'over_budget')).toHaveLength(6 + 7);
    expect(clicks.filter((c) => c.invalidReason === 'duplicate')).toHaveLength(3);
    expect(clicks.filter((c) => c.invalidReason === 'bad_signature')).toHaveLength(2);
    expect(clicks.filter((c) => c.invalidReason === 'bot')).toHaveLength(1);

    // The ledger balances to the micro, overall, per campaign, per publisher and per click.
    const spend = entries('campaign_spend');
    expect(spend).toBe(6 * 370_000 + 3 * 410_000 + 2 * 1_000_001);
    expect(entries('publisher_earnings') + entries('platform_revenue')).toBe(spend);
    expect(sumOf(campaigns, (c) => c.spentMicros)).toBe(spend);
    for (const campaign of campaigns) {
      expect(entries('campaign_spend', (e) => e.campaignId === campaign.id)).toBe(
        campaign.spentMicros,
      );
    }
    expect(
      ledger
        .filter((e) => e.account === 'campaign_spend')
        .map((e) => e.clickId)
        .sort(),
    ).toEqual(billed.map((c) => c.id).sort());
    for (const click of billed) {
      const own = (account: string) => entries(account, (e) => e.clickId === click.id);
      expect(own('campaign_spend')).toBe(click.costMicros);
      expect(own('publisher_earnings')).toBe(click.publisherEarningsMicros);
      expect(own('publisher_earnings') + own('platform_revenue')).toBe(click.costMicros);
    }
    expect(capped.budgetTotalMicros).toBe(
      sumOf(
        campaigns,
        (c) => c.spentMicros,
        (c) => c.id === capped.id,
      ),
    );

    // The roll-ups agree with the ledger and the raw events.
    expect(sumOf(rollups, (s) => s.spendMicros)).toBe(spend);
    expect(sumOf(rollups, (s) => s.earningsMicros)).toBe(entries('publisher_earnings'));
    expect(sumOf(rollups, (s) => s.clicks)).toBe(billed.length);
    expect(sumOf(rollups, (s) => s.impressions)).toBe(impressions.length);
    // Unbilled clicks that name a real impression count for its publisher and model; forged
    // links name none, so they count for their campaign alone (under no publisher or model).
    const forgedClicks = clicks.filter((c) => c.invalidReason === 'bad_signature');
    const real = (s: DailyStat) => s.publisherId !== '';
    expect(sumOf(rollups, (s) => s.invalidClicks, real)).toBe(
      clicks.filter((c) => c.status !== 'billed').length - forgedClicks.length,
    );
    expect(
      sumOf(
        rollups,
        (s) => s.invalidClicks,
        (s) => !real(s),
      ),
    ).toBe(forgedClicks.length);

    const today = utcDay(new Date());
    const range = `from=${today}&to=${today}`;
    const micros = (units: unknown) => unitsToMicros(units as number);

    // /api/stats, as each publisher sees it.
    for (const p of publishers) {
      const stats = (await (await p.api('GET', `/api/stats?${range}`)).json()) as {
        totals: Figures;
      };
      const mine = (e: LedgerEntry) => e.publisherId === p.publisher.id;
      expect(micros(stats.totals.earnings)).toBe(entries('publisher_earnings', mine));
      expect(stats.totals.clicks).toBe(
        billed.filter((c) => c.publisherId === p.publisher.id).length,
      );
      expect(stats.totals.impressions).toBe(
        impressions.filter((i) => i.publisherId === p.publisher.id).length,
      );
    }

    // The operator's reports.
    const operator = await t.f.operator();
    const report = async (path: string) => (await (await operator.api('GET', path)).json()) as Json;
    for (const id of campaignIds) {
      const stats = await report(`/api/admin/campaigns/${id}/stats?${range}`);
      const totals = stats.totals as Figures;
      expect(micros(totals.spend)).toBe(entries('campaign_spend', (e) => e.campaignId === id));
      expect(micros(stats.spent)).toBe(campaigns.find((c) => c.id === id)?.spentMicros);
      expect(totals.clicks).toBe(billed.filter((c) => c.campaignId === id).length);
      expect(totals.impressions).toBe(impressions.filter((i) => i.campaignId === id).length);
      // Every unbilled click on the campaign, the forged ones included.
      expect(totals.invalid_clicks).toBe(
        clicks.filter((c) => c.campaignId === id && c.status !== 'billed').length,
      );
    }
    const platform = await report(`/api/admin/reports/publishers?${range}`);
    const rows = platform.rows as (Figures & { publisher_id: string })[];
    expect(rows.map((r) => r.publisher_id).sort()).toEqual(
      publishers.map((p) => p.publisher.id).sort(),
    );
    for (const row of rows) {
      const theirs = (e: LedgerEntry) => e.publisherId === row.publisher_id;
      expect(micros(row.spend)).toBe(entries('campaign_spend', theirs));
      expect(micros(row.publisher_earnings)).toBe(entries('publisher_earnings', theirs));
      expect(micros(row.platform_revenue)).toBe(entries('platform_revenue', theirs));
    }
    const totals = platform.totals as Figures;
    expect(micros(totals.spend)).toBe(spend);
    expect(micros(totals.publisher_earnings)).toBe(entries('publisher_earnings'));
    expect(micros(totals.platform_revenue)).toBe(entries('platform_revenue'));
    expect(totals.impressions).toBe(impressions.length);
    expect(totals.clicks).toBe(billed.length);
    // A forged click never counts for a publisher.
    expect(totals.invalid_clicks).toBe(
      clicks.filter((c) => c.status !== 'billed').length - forgedClicks.length,
    );
  }, 60_000);
});
