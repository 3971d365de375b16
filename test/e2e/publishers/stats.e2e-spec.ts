import type { StatIncrement } from '@/earnings/daily-stats.repository';
import { NO_FILL_REASONS } from '@/earnings/fill-outcomes';
import type { SignedInPublisher } from '@test/factories';
import { expectProblem } from '@test/support/problem';
import { startTestApp, TestApp } from '@test/support/test-app';
import { testDatabaseKind } from '@test/support/test-database';

/** This suite writes roll-ups directly, so no fetch-ads request is counted (fill-stats.e2e-spec.ts). */
const noRequests = { requests: 0, fills: 0, fill_rate: null, no_fills: {} };

interface StatsBody {
  from: string;
  to: string;
  rows: {
    date: string;
    model_id: string;
    impressions: number;
    clicks: number;
    ctr: number;
    rpm: number;
    earnings: number;
    test_impressions: number;
    test_clicks: number;
    viewed_impressions: number;
    view_rate: number;
    requests: number;
    fills: number;
    fill_rate: number | null;
    no_fills: Record<string, number>;
  }[];
  totals: {
    impressions: number;
    clicks: number;
    ctr: number;
    rpm: number;
    earnings: number;
    test_impressions: number;
    test_clicks: number;
    viewed_impressions: number;
    view_rate: number;
    requests: number;
    fills: number;
    fill_rate: number | null;
    no_fills: Record<string, number>;
  };
}

describe(`GET /api/stats (${testDatabaseKind()})`, () => {
  let t: TestApp;
  let me: SignedInPublisher;
  let secondModelId: string;
  const stats = async (query: string, who: SignedInPublisher = me) =>
    who.api('GET', `/api/stats?${query}`);

  beforeAll(async () => {
    t = await startTestApp();
    me = await t.f.signedInPublisher();
    const second = (await (await me.api('POST', '/api/models', { name: 'Second' })).json()) as {
      id: string;
    };
    secondModelId = second.id;
    const stranger = await t.f.publisherWithKey();
    const mine = (
      day: string,
      modelId: string,
      campaignId: string,
      counts: Partial<StatIncrement>,
    ): StatIncrement => ({ day, modelId, campaignId, publisherId: me.publisher.id, ...counts });
    await t.f.rollup(
      // Outside the range on both sides.
      mine('2026-02-28', me.model.id, 'c1', {
        impressions: 1000,
        clicks: 100,
        earningsMicros: 9_000_000,
      }),
      mine('2026-03-03', me.model.id, 'c1', {
        impressions: 1000,
        clicks: 100,
        earningsMicros: 9_000_000,
      }),
      // Two campaigns on one day and model add up to one row.
      mine('2026-03-01', me.model.id, 'c1', {
        impressions: 300,
        clicks: 2,
        earningsMicros: 490_000,
      }),
      mine('2026-03-01', me.model.id, 'c2', {
        impressions: 100,
        clicks: 1,
        earningsMicros: 140_000,
        invalidClicks: 7,
      }),
      mine('2026-03-01', secondModelId, 'c1', { impressions: 50, earningsMicros: 0 }),
      mine('2026-03-02', me.model.id, 'c2', { impressions: 3, clicks: 1, earningsMicros: 245_000 }),
      // Test keys' traffic, beside billable figures and on a day of its own.
      mine('2026-03-02', me.model.id, 'c1', { testImpressions: 9, testClicks: 2 }),
      mine('2026-03-02', secondModelId, 'c2', { testImpressions: 4 }),
      // Another publisher's activity on the same days.
      {
        day: '2026-03-01',
        modelId: stranger.model.id,
        campaignId: 'c1',
        publisherId: stranger.publisher.id,
        impressions: 5000,
        clicks: 50,
        earningsMicros: 5_000_000,
      },
    );
  });
  afterAll(() => t.close());

  it('sums the roll-ups per UTC day and model, with valid clicks, CTR, earnings in units, test traffic apart and totals', async () => {
    const response = await stats('from=2026-03-01&to=2026-03-02');
    expect(response.status).toBe(200);
    const row = (
      date: string,
      model_id: string,
      impressions: number,
      clicks: number,
      ctr: number,
      rpm: number,
      earnings: number,
      test_impressions = 0,
      test_clicks = 0,
    ) => ({
      date,
      model_id,
      impressions,
      clicks,
      ctr,
      rpm,
      earnings,
      test_impressions,
      test_clicks,
      viewed_impressions: 0,
      view_rate: 0,
      ...noRequests,
    });
    const expected: StatsBody = {
      from: '2026-03-01',
      to: '2026-03-02',
      rows: [
        // Within a day, rows come by model id.
        ...[
          row('2026-03-01', me.model.id, 400, 3, 0.0075, 1.575, 0.63),
          row('2026-03-01', secondModelId, 50, 0, 0, 0, 0),
        ].sort((a, b) => (a.model_id < b.model_id ? -1 : 1)),
        ...[
          row('2026-03-02', me.model.id, 3, 1, 0.333333, 81.666667, 0.245, 9, 2),
          row('2026-03-02', secondModelId, 0, 0, 0, 0, 0, 4, 0),
        ].sort((a, b) => (a.model_id < b.model_id ? -1 : 1)),
      ],
      totals: {
        impressions: 453,
        clicks: 4,
        ctr: 0.00883,
        rpm: 1.931567,
        earnings: 0.875,
        test_impressions: 13,
        test_clicks: 2,
        viewed_impressions: 0,
        view_rate: 0,
        ...noRequests,
      },
    };
    expect(await response.json()).toEqual(expected);
  });

  it('narrows to one model with model_id', async () => {
    const body = (await (
      await stats(`from=2026-03-01&to=2026-03-31&model_id=${secondModelId}`)
    ).json()) as StatsBody;
    expect(body.rows.map((r) => [r.date, r.model_id])).toEqual([
      ['2026-03-01', secondModelId],
      ['2026-03-02', secondModelId],
    ]);
    expect(body.totals).toEqual({
      impressions: 50,
      clicks: 0,
      ctr: 0,
      rpm: 0,
      earnings: 0,
      test_impressions: 4,
      test_clicks: 0,
      viewed_impressions: 0,
      view_rate: 0,
      ...noRequests,
    });
  });

  it('answers empty rows and zero totals for a quiet range', async () => {
    expect(await (await stats('from=2025-01-01&to=2025-01-31')).json()).toEqual({
      from: '2025-01-01',
      to: '2025-01-31',
      rows: [],
      totals: {
        impressions: 0,
        clicks: 0,
        ctr: 0,
        rpm: 0,
        earnings: 0,
        test_impressions: 0,
        test_clicks: 0,
        viewed_impressions: 0,
        view_rate: 0,
        ...noRequests,
      },
    });
  });

  it('downloads the same figures as CSV with format=csv, a line per day and model, totals last', async () => {
    const response = await stats(
      `from=2026-03-02&to=2026-03-02&model_id=${me.model.id}&format=csv`,
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe(
      'attachment; filename="stats-2026-03-02-2026-03-02.csv"',
    );
    const noFills = NO_FILL_REASONS.map(() => '0');
    expect((await response.text()).split('\r\n')).toEqual([
      [
        'date,model_id,impressions,clicks,ctr,rpm,earnings,test_impressions,test_clicks,viewed_impressions,view_rate,requests,fills,fill_rate',
        ...NO_FILL_REASONS.map((reason) => `no_fill_${reason}`),
      ].join(','),
      ['2026-03-02', me.model.id, '3,1,0.333333,81.666667,0.245,9,2,0,0,0,0,', ...noFills].join(
        ',',
      ),
      ['total,', '3,1,0.333333,81.666667,0.245,9,2,0,0,0,0,', ...noFills].join(','),
      '',
    ]);
    // JSON stays the default, and another format is refused rather than ignored.
    expect(
      (await stats('from=2026-03-02&to=2026-03-02&format=json')).headers.get('content-type'),
    ).toContain('application/json');
    const problem = await expectProblem(
      await stats('from=2026-03-02&to=2026-03-02&format=xlsx'),
      400,
      'validation_failed',
    );
    expect(problem.errors?.map((e) => e.field)).toEqual(['format']);
  });

  it('accepts a range of exactly 366 days', async () => {
    expect((await stats('from=2024-01-01&to=2024-12-31')).status).toBe(200);
  });

  it.each([
    ['a missing from', 'to=2026-03-01', 'from'],
    ['a missing to', 'from=2026-03-01', 'to'],
    ['a date that is not YYYY-MM-DD', 'from=03/01/2026&to=2026-03-02', 'from'],
    ['a date with a time', 'from=2026-03-01T00:00:00Z&to=2026-03-02', 'from'],
    ['a day that does not exist', 'from=2026-02-29&to=2026-03-02', 'from'],
    ['a range that ends before it starts', 'from=2026-03-02&to=2026-03-01', 'to'],
    ['a range of 367 days', 'from=2025-01-01&to=2026-01-02', 'to'],
  ])('answers 400 naming the field for %s', async (_label, query, field) => {
    const problem = await expectProblem(await stats(query), 400, 'validation_failed');
    expect(problem.errors?.map((e) => e.field)).toEqual([field]);
  });

  it('answers 404 for a model_id that is not one of the publisher’s models', async () => {
    await expectProblem(
      await stats('from=2026-03-01&to=2026-03-02&model_id=nope'),
      404,
      'model_not_found',
    );
  });

  it('answers 401 without a session', async () => {
    await expectProblem(
      await t.http('/api/stats?from=2026-03-01&to=2026-03-02'),
      401,
      'unauthorized',
    );
  });
});
