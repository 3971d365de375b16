import { Clock, utcDay } from '@/common/clock';
import { FillStatsRecorder } from '@/earnings/fill-stats-recorder.service';
import type { SignedIn } from '@test/factories';
import { ask } from '@test/support/ads';
import { expectProblem } from '@test/support/problem';
import { startTestApp, TestApp } from '@test/support/test-app';
import { createTestDatabase, testDatabaseKind } from '@test/support/test-database';

interface FillFigures {
  requests: number;
  fills: number;
  fill_rate: number | null;
  no_fills: Record<string, number>;
}

interface Figures extends FillFigures {
  impressions: number;
  test_impressions: number;
}

interface StatsBody {
  rows: (Figures & { date: string; model_id: string })[];
  totals: Figures;
}

const fillsOf = ({ requests, fills, fill_rate, no_fills }: FillFigures): FillFigures => ({
  requests,
  fills,
  fill_rate,
  no_fills,
});

/** Words no campaign of these suites targets. */
const NOTHING_MATCHES = ask('harpsichord tuning');

async function statsOf(app: TestApp, who: SignedIn, query?: string): Promise<StatsBody> {
  const today = utcDay(new Date());
  const response = await who.api('GET', `/api/stats?${query ?? `from=${today}&to=${today}`}`);
  expect(response.status).toBe(200);
  return (await response.json()) as StatsBody;
}

describe(`no-fill analytics: GET /api/stats counts fetch-ads' outcomes (${testDatabaseKind()})`, () => {
  let t: TestApp;
  const flush = () => t.app.get(FillStatsRecorder).flush();
  const served = async (key: string) =>
    expect((await t.fetchAds(key, ask('espresso'))).status).toBe(200);
  const refused = async (key: string, body: unknown, reason: string) => {
    const problem = await expectProblem(await t.fetchAds(key, body), 404, 'no_matching_ad');
    expect(problem).toMatchObject({ reason });
  };

  beforeAll(async () => {
    t = await startTestApp();
    await t.f.campaign({ keywords: 'espresso' });
  });
  afterAll(() => t.close());

  it('shows requests, fills, fill rate and no-fills by reason per day and model, and nothing of another publisher', async () => {
    const me = await t.f.signedInPublisher();
    const created = await me.api('POST', '/api/models', { name: 'Second' });
    const second = (await created.json()) as { id: string; api_key: { key: string } };
    const stranger = await t.f.signedInPublisher();

    for (let i = 0; i < 3; i++) await served(me.key);
    await refused(me.key, NOTHING_MATCHES, 'no_match');
    await refused(me.key, NOTHING_MATCHES, 'no_match');
    await refused(me.key, ask('espresso, suicide'), 'sensitive_topic');
    // The second model's only request gets no ad: a row of its own all the same.
    await refused(second.api_key.key, NOTHING_MATCHES, 'no_match');
    await served(stranger.key);
    await refused(stranger.key, NOTHING_MATCHES, 'no_match');
    // A request the key guard refuses is no request of anyone's.
    await expectProblem(await t.fetchAds('adl_nonsense', ask('espresso')), 404, 'invalid_api_key');

    // Nothing before the write: the counts live in memory until then.
    expect(fillsOf((await statsOf(t, me)).totals).requests).toBe(0);
    await flush();

    const body = await statsOf(t, me);
    const rowOf = (modelId: string) => body.rows.find((r) => r.model_id === modelId);
    expect(body.rows).toHaveLength(2);
    expect(rowOf(me.model.id)).toMatchObject({
      impressions: 3,
      requests: 6,
      fills: 3,
      fill_rate: 0.5,
      no_fills: { no_match: 2, sensitive_topic: 1 },
    });
    expect(rowOf(second.id)).toMatchObject({
      impressions: 0,
      requests: 1,
      fills: 0,
      fill_rate: 0,
      no_fills: { no_match: 1 },
    });
    expect(fillsOf(body.totals)).toEqual({
      requests: 7,
      fills: 3,
      fill_rate: 0.428571,
      no_fills: { no_match: 3, sensitive_topic: 1 },
    });

    const today = utcDay(new Date());
    const secondOnly = await statsOf(t, me, `from=${today}&to=${today}&model_id=${second.id}`);
    expect(secondOnly.rows.map((r) => r.model_id)).toEqual([second.id]);
    expect(fillsOf(secondOnly.totals)).toEqual({
      requests: 1,
      fills: 0,
      fill_rate: 0,
      no_fills: { no_match: 1 },
    });

    expect(fillsOf((await statsOf(t, stranger)).totals)).toEqual({
      requests: 2,
      fills: 1,
      fill_rate: 0.5,
      no_fills: { no_match: 1 },
    });
  });

  it('counts a request on the UTC day it was answered, either side of midnight', async () => {
    const me = await t.f.signedInPublisher();
    const clock = t.app.get(Clock);
    const realNow = clock.now.bind(clock);
    let now = new Date('2031-05-05T23:59:59.000Z');
    clock.now = () => now;
    try {
      await refused(me.key, NOTHING_MATCHES, 'no_match');
      now = new Date('2031-05-06T00:00:01.000Z');
      await served(me.key);
      await refused(me.key, NOTHING_MATCHES, 'no_match');
    } finally {
      clock.now = realNow;
    }
    await flush();
    const body = await statsOf(t, me, 'from=2031-05-05&to=2031-05-06');
    expect(
      body.rows.map((r) => ({ date: r.date, impressions: r.impressions, ...fillsOf(r) })),
    ).toEqual([
      {
        date: '2031-05-05',
        impressions: 0,
        requests: 1,
        fills: 0,
        fill_rate: 0,
        no_fills: { no_match: 1 },
      },
      {
        date: '2031-05-06',
        impressions: 1,
        requests: 2,
        fills: 1,
        fill_rate: 0.5,
        no_fills: { no_match: 1 },
      },
    ]);
  });

  it('counts a test key’s requests as no-fills of reason test, with or without an ad', async () => {
    const me = await t.f.signedInPublisher();
    const created = await me.api('POST', `/api/models/${me.model.id}/keys`, { kind: 'test' });
    expect(created.status).toBe(201);
    const testKey = ((await created.json()) as { key: string }).key;
    await served(testKey);
    await refused(testKey, NOTHING_MATCHES, 'no_match');
    await served(me.key);
    await flush();
    const { totals } = await statsOf(t, me);
    expect(totals).toMatchObject({ impressions: 1, test_impressions: 1 });
    expect(fillsOf(totals)).toEqual({
      requests: 3,
      fills: 1,
      fill_rate: 0.333333,
      no_fills: { test: 2 },
    });
  });

  it('answers no requests and a null fill rate for a range without any', async () => {
    const me = await t.f.signedInPublisher();
    const body = await statsOf(t, me, 'from=2025-01-01&to=2025-01-31');
    expect(body.rows).toEqual([]);
    expect(fillsOf(body.totals)).toEqual({ requests: 0, fills: 0, fill_rate: null, no_fills: {} });
  });

  it('keeps serving ads while the counts cannot be written, and writes them once it can', async () => {
    const me = await t.f.signedInPublisher();
    await t.dataSource.query('ALTER TABLE daily_fill_stats RENAME TO daily_fill_stats_away');
    try {
      await served(me.key);
      await refused(me.key, NOTHING_MATCHES, 'no_match');
      // The failed write is logged and keeps the counts; it throws at no one.
      await flush();
    } finally {
      await t.dataSource.query('ALTER TABLE daily_fill_stats_away RENAME TO daily_fill_stats');
    }
    expect(fillsOf((await statsOf(t, me)).totals).requests).toBe(0);
    await flush();
    expect(fillsOf((await statsOf(t, me)).totals)).toEqual({
      requests: 2,
      fills: 1,
      fill_rate: 0.5,
      no_fills: { no_match: 1 },
    });
  });

  it('writes the counts every FILL_STATS_FLUSH_SECONDS without being asked', async () => {
    const quick = await startTestApp({ FILL_STATS_FLUSH_SECONDS: '1' });
    try {
      const me = await quick.f.signedInPublisher();
      await expectProblem(await quick.fetchAds(me.key, NOTHING_MATCHES), 404, 'no_matching_ad');
      const deadline = Date.now() + 5000;
      let totals = (await statsOf(quick, me)).totals;
      while (totals.requests === 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        totals = (await statsOf(quick, me)).totals;
      }
      expect(fillsOf(totals)).toEqual({
        requests: 1,
        fills: 0,
        fill_rate: 0,
        no_fills: { no_match: 1 },
      });
    } finally {
      await quick.close();
    }
  });

  it('writes the counts still in memory when the app shuts down', async () => {
    const db = await createTestDatabase();
    try {
      const first = await startTestApp({}, { database: db });
      const me = await first.f.signedInPublisher();
      try {
        await first.f.campaign({ keywords: 'espresso' });
        expect((await first.fetchAds(me.key, ask('espresso'))).status).toBe(200);
        await expectProblem(await first.fetchAds(me.key, NOTHING_MATCHES), 404, 'no_matching_ad');
      } finally {
        // Far before FILL_STATS_FLUSH_SECONDS (an hour in tests): only the shutdown writes.
        await first.close();
      }
      const second = await startTestApp({}, { database: db });
      try {
        const again = await second.f.signIn(me.publisher);
        expect(fillsOf((await statsOf(second, again)).totals)).toEqual({
          requests: 2,
          fills: 1,
          fill_rate: 0.5,
          no_fills: { no_match: 1 },
        });
      } finally {
        await second.close();
      }
    } finally {
      await db.drop();
    }
  });
});
