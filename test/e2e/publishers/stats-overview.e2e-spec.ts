import { Clock } from '@/common/clock';
import type { StatIncrement } from '@/earnings/daily-stats.repository';
import type { SignedInPublisher } from '@test/factories';
import { ask, campaignLink, followAsBrowser } from '@test/support/ads';
import { expectProblem } from '@test/support/problem';
import { startTestApp, TestApp } from '@test/support/test-app';
import { testDatabaseKind } from '@test/support/test-database';

interface Figures {
  from: string;
  to: string;
  impressions: number;
  clicks: number;
  earnings: number;
  ctr: number;
  rpm: number;
}
interface Period extends Figures {
  period: string;
  previous: Figures;
  earnings_change: number | null;
}

/** The app's clock during this suite: the middle of a UTC day, half-way through May 2031. */
const NOW = new Date('2031-05-15T12:00:00.000Z');

describe(`GET /api/stats/overview (${testDatabaseKind()})`, () => {
  let t: TestApp;
  let me: SignedInPublisher;
  let periods: Record<string, Period>;

  /**
   * Today (through the real routes, at NOW): two ads at a bid of 0.50, one clicked, so 0.35
   * earned at 70 %. The days before, as roll-ups: 0.50 yesterday, 0.25 the day before,
   * 1.00 on 10 April and 2.00 on 20 April, 1.50 on 31 March, and another publisher's 9.00.
   */
  beforeAll(async () => {
    t = await startTestApp();
    me = await t.f.signedInPublisher({ revenueShare: 0.7 });
    await t.f.campaign({ keywords: 'sailing lessons', bid: '0.50' });
    const clock = t.app.get(Clock);
    const realNow = clock.now.bind(clock);
    clock.now = () => NOW;
    try {
      const link = campaignLink(await t.fetchAds(me.key, ask('sailing lessons')));
      await campaignLink(await t.fetchAds(me.key, ask('sailing lessons')));
      expect((await followAsBrowser(await link)).status).toBe(302);
      const rollup = (day: string, impressions: number, clicks: number, earningsMicros: number) =>
        ({
          day,
          modelId: me.model.id,
          campaignId: 'c1',
          publisherId: me.publisher.id,
          impressions,
          clicks,
          earningsMicros,
        }) satisfies StatIncrement;
      const stranger = await t.f.publisherWithKey();
      await t.f.rollup(
        rollup('2031-05-14', 10, 2, 500_000),
        rollup('2031-05-13', 4, 1, 250_000),
        rollup('2031-04-10', 20, 3, 1_000_000),
        rollup('2031-04-20', 40, 5, 2_000_000),
        rollup('2031-03-31', 30, 4, 1_500_000),
        { ...rollup('2031-05-15', 100, 10, 9_000_000), publisherId: stranger.publisher.id },
      );
      const response = await me.api('GET', '/api/stats/overview');
      expect(response.status).toBe(200);
      const body = (await response.json()) as { currency: string; periods: Period[] };
      expect(body.currency).toBe('USD');
      expect(body.periods.map((p) => p.period)).toEqual([
        'today',
        'yesterday',
        'this_month',
        'last_month',
      ]);
      periods = Object.fromEntries(body.periods.map((p) => [p.period, p]));
    } finally {
      clock.now = realNow;
    }
  });
  afterAll(() => t.close());

  it('counts today’s served and clicked ads in today, beside yesterday, with the change in earnings', () => {
    expect(periods.today).toEqual({
      period: 'today',
      from: '2031-05-15',
      to: '2031-05-15',
      impressions: 2,
      clicks: 1,
      earnings: 0.35,
      ctr: 0.5,
      rpm: 175,
      previous: {
        from: '2031-05-14',
        to: '2031-05-14',
        impressions: 10,
        clicks: 2,
        earnings: 0.5,
        ctr: 0.2,
        rpm: 50,
      },
      // (0.35 − 0.50) ÷ 0.50
      earnings_change: -0.3,
    });
  });

  it('shows yesterday’s roll-ups in yesterday, beside the day before', () => {
    expect(periods.yesterday).toMatchObject({
      from: '2031-05-14',
      to: '2031-05-14',
      earnings: 0.5,
      previous: { from: '2031-05-13', to: '2031-05-13', earnings: 0.25 },
      earnings_change: 1,
    });
  });

  it('counts today in this month, beside last month up to the same day', () => {
    expect(periods.this_month).toMatchObject({
      from: '2031-05-01',
      to: '2031-05-15',
      impressions: 16,
      clicks: 4,
      earnings: 1.1,
      previous: { from: '2031-04-01', to: '2031-04-15', impressions: 20, earnings: 1 },
      earnings_change: 0.1,
    });
  });

  it('shows last month whole, beside the month before', () => {
    expect(periods.last_month).toMatchObject({
      from: '2031-04-01',
      to: '2031-04-30',
      impressions: 60,
      clicks: 8,
      earnings: 3,
      previous: { from: '2031-03-01', to: '2031-03-31', earnings: 1.5 },
      earnings_change: 1,
    });
  });

  it('answers a null change when the period before earned nothing', async () => {
    const newcomer = await t.f.signedInPublisher();
    const body = (await (await newcomer.api('GET', '/api/stats/overview')).json()) as {
      periods: Period[];
    };
    expect(body.periods.map((p) => [p.earnings, p.rpm, p.earnings_change])).toEqual([
      [0, 0, null],
      [0, 0, null],
      [0, 0, null],
      [0, 0, null],
    ]);
  });

  it('answers 401 without a session', async () => {
    await expectProblem(await t.http('/api/stats/overview'), 401, 'unauthorized');
  });
});
