import { NOTHING_MEASURED } from '@test/support/operator-api';
import { DailyUnbilledClick } from '@/earnings/entities/daily-unbilled-click.entity';
import { UNBILLED_REASONS } from '@/reports/report-figures';
import { Publisher } from '@/publishers/entities/publisher.entity';
import { expectProblem } from '@test/support/problem';
import { startTestApp, TestApp } from '@test/support/test-app';
import { testDatabaseKind } from '@test/support/test-database';

type Json = Record<string, unknown>;

describe(`operator reports (${testDatabaseKind()})`, () => {
  let t: TestApp;
  let operator: Awaited<ReturnType<TestApp['f']['operator']>>;

  beforeAll(async () => {
    t = await startTestApp();
    operator = await t.f.operator();
  });
  afterAll(() => t.close());

  const get = async (path: string): Promise<Json> => {
    const response = await operator.api('GET', path);
    expect(response.status).toBe(200);
    return (await response.json()) as Json;
  };

  describe("a campaign's report", () => {
    it('shows each UTC day with activity inside from–to, with CTR, spend and the remaining budget', async () => {
      const c = await t.f.campaign({ bid: '0.5', budgetTotal: '100', budgetDaily: '20' });
      const { publisher, model } = await t.f.publisherWithKey();
      const row = { modelId: model.id, campaignId: c.id, publisherId: publisher.id };
      await t.f.rollup(
        { ...row, day: '2030-05-31', impressions: 99, clicks: 9, spendMicros: 4_500_000 },
        {
          ...row,
          day: '2030-06-01',
          impressions: 40,
          clicks: 3,
          invalidClicks: 1,
          spendMicros: 1_500_000,
        },
        { ...row, day: '2030-06-03', impressions: 7, spendMicros: 0 },
        { ...row, day: '2030-06-04', impressions: 1, clicks: 1, spendMicros: 500_000 },
      );
      await t.dataSource
        .getRepository(DailyUnbilledClick)
        .insert({ ...row, day: '2030-06-01', reason: 'bot', clicks: 1 });
      // Spend on the campaign row itself, as billed clicks would have left it.
      await t.dataSource.query(
        'UPDATE campaigns SET spent_micros = ?, spent_today_micros = ?, spent_day = ? WHERE id = ?',
        [6_500_000, 500_000, '2030-06-04', c.id],
      );

      const report = await get(`/api/admin/campaigns/${c.id}/stats?from=2030-06-01&to=2030-06-03`);

      expect(report).toEqual({
        campaign_id: c.id,
        from: '2030-06-01',
        to: '2030-06-03',
        rows: [
          {
            date: '2030-06-01',
            impressions: 40,
            clicks: 3,
            invalid_clicks: 1,
            ctr: 0.075,
            spend: 1.5,
            invalid_click_rate: 0.25,
            unbilled_by_reason: { bot: 1 },
            ...NOTHING_MEASURED,
            roas: 0,
          },
          {
            date: '2030-06-03',
            impressions: 7,
            clicks: 0,
            invalid_clicks: 0,
            ctr: 0,
            spend: 0,
            invalid_click_rate: 0,
            unbilled_by_reason: {},
            ...NOTHING_MEASURED,
            roas: null,
          },
        ],
        totals: {
          impressions: 47,
          clicks: 3,
          invalid_clicks: 1,
          ctr: 0.06383,
          spend: 1.5,
          invalid_click_rate: 0.25,
          unbilled_by_reason: { bot: 1 },
          ...NOTHING_MEASURED,
          roas: 0,
        },
        budget_total: 100,
        budget_daily: 20,
        spent: 6.5,
        // The last spend was on an earlier UTC day: nothing is spent today yet.
        spent_today: 0,
        remaining_budget: 93.5,
        remaining_budget_today: 20,
      });
    });

    it('answers 400 for a missing, malformed, reversed or too long range, and 404 for an unknown campaign', async () => {
      const c = await t.f.campaign();
      const stats = (query: string) =>
        operator.api('GET', `/api/admin/campaigns/${c.id}/stats?${query}`);
      for (const query of [
        'to=2030-01-01',
        'from=2030-02-30&to=2030-03-01',
        'from=2030-01-02&to=2030-01-01',
        'from=2030-01-01&to=2031-01-02',
        'from=2030-01-01&to=2030-01-02&format=xlsx',
      ]) {
        await expectProblem(await stats(query), 400, 'validation_failed');
      }
      expect((await stats('from=2030-01-01&to=2030-12-31')).status).toBe(200);
      await expectProblem(
        await operator.api('GET', '/api/admin/campaigns/nope/stats?from=2030-01-01&to=2030-01-02'),
        404,
        'campaign_not_found',
      );
    });
  });

  describe('the publisher report', () => {
    it('shows per publisher the spend and its split, and as CSV defuses names a spreadsheet would run', async () => {
      const c = await t.f.campaign();
      const honest = await t.f.publisherWithKey();
      const sneaky = await t.f.publisherWithKey();
      await t.dataSource
        .getRepository(Publisher)
        .update(
          { id: sneaky.publisher.id },
          { name: '=HYPERLINK("https://evil.example","Click")' },
        );
      const row = (p: typeof honest) => ({
        modelId: p.model.id,
        campaignId: c.id,
        publisherId: p.publisher.id,
      });
      await t.f.rollup(
        {
          ...row(honest),
          day: '2030-07-01',
          impressions: 10,
          clicks: 2,
          spendMicros: 1_000_001,
          earningsMicros: 700_000,
        },
        {
          ...row(sneaky),
          day: '2030-07-02',
          impressions: 5,
          clicks: 1,
          spendMicros: 333_333,
          earningsMicros: 111_111,
        },
        {
          ...row(sneaky),
          day: '2030-08-01',
          impressions: 1000,
          clicks: 100,
          spendMicros: 9_000_000,
        },
      );
      const range = 'from=2030-07-01&to=2030-07-31';

      const report = await get(`/api/admin/reports/publishers?${range}`);
      const rows = report.rows as Json[];
      const of = (p: typeof honest) => rows.find((r) => r.publisher_id === p.publisher.id);
      expect(rows).toHaveLength(2);
      expect(of(honest)).toEqual({
        publisher_id: honest.publisher.id,
        publisher_name: honest.publisher.name,
        publisher_email: honest.publisher.email,
        impressions: 10,
        clicks: 2,
        invalid_clicks: 0,
        ctr: 0.2,
        spend: 1.000001,
        publisher_earnings: 0.7,
        platform_revenue: 0.300001,
        invalid_click_rate: 0,
        unbilled_by_reason: {},
        ...NOTHING_MEASURED,
        roas: 0,
      });
      expect(of(sneaky)).toMatchObject({
        spend: 0.333333,
        publisher_earnings: 0.111111,
        platform_revenue: 0.222222,
      });
      expect(report.totals).toEqual({
        impressions: 15,
        clicks: 3,
        invalid_clicks: 0,
        ctr: 0.2,
        spend: 1.333334,
        publisher_earnings: 0.811111,
        platform_revenue: 0.522223,
        invalid_click_rate: 0,
        unbilled_by_reason: {},
        ...NOTHING_MEASURED,
        roas: 0,
      });

      const csv = await operator.api('GET', `/api/admin/reports/publishers?${range}&format=csv`);
      expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(csv.headers.get('content-disposition')).toBe(
        'attachment; filename="publishers-2030-07-01-2030-07-31.csv"',
      );
      const lines = (await csv.text()).split('\r\n');
      // The invalid share, then one column per reason: all 0 here; no views, no conversions
      // (an empty cost per conversion: none to divide by).
      const noneUnbilled = `,0${',0'.repeat(UNBILLED_REASONS.length)},0,0,0,0,0,,0,0`;
      expect(lines[0]).toBe(
        'publisher_id,publisher_name,publisher_email,impressions,clicks,invalid_clicks,ctr,spend,publisher_earnings,platform_revenue,invalid_click_rate,' +
          UNBILLED_REASONS.map((r) => `unbilled_${r}`).join(',') +
          ',viewed_impressions,view_rate' +
          ',conversions,conversion_rate,conversion_value,cost_per_conversion,roas,conversions_received',
      );
      expect(lines).toContain(
        `${sneaky.publisher.id},"'=HYPERLINK(""https://evil.example"",""Click"")",${sneaky.publisher.email},5,1,0,0.2,0.333333,0.111111,0.222222${noneUnbilled}`,
      );
      expect(lines.at(-2)).toBe(`total,,,15,3,0,0.2,1.333334,0.811111,0.522223${noneUnbilled}`);
      expect(lines.at(-1)).toBe('');
    });

    it('answers 400 without a range', async () => {
      await expectProblem(
        await operator.api('GET', '/api/admin/reports/publishers'),
        400,
        'validation_failed',
      );
    });
  });
});
