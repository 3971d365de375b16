import { NOTHING_MEASURED } from '@test/support/operator-api';
import { utcDay } from '@/common/clock';
import { DailyStat } from '@/earnings/entities/daily-stat.entity';
import { DailyUnbilledClick } from '@/earnings/entities/daily-unbilled-click.entity';
import { PublishersService } from '@/publishers/publishers.service';
import { ClickLinkSigner } from '@/tracking/click-link';
import { Click } from '@/tracking/entities/click.entity';
import { UnbilledClickReasons1764000100000 } from '../../../migrations/1764000100000-unbilled-click-reasons';
import { ask, campaignLink, followAsBrowser } from '@test/support/ads';
import { expectProblem } from '@test/support/problem';
import { startTestApp, TestApp } from '@test/support/test-app';
import { testDatabaseKind } from '@test/support/test-database';

type Json = Record<string, unknown>;
type Row = Json & { unbilled_by_reason: Record<string, number> };

const DAY_MS = 86_400_000;
// Yesterday to tomorrow: today's traffic is inside even if the run crosses UTC midnight.
const range = () =>
  `from=${utcDay(new Date(Date.now() - DAY_MS))}&to=${utcDay(new Date(Date.now() + DAY_MS))}`;

describe(`invalid-click reports (${testDatabaseKind()})`, () => {
  let t: TestApp;
  let operator: Awaited<ReturnType<TestApp['f']['operator']>>;
  const ids = { campaign: '', budgeted: '', a: '', b: '', modelA: '', modelB1: '', modelB2: '' };

  const get = async (path: string): Promise<Json> => {
    const response = await operator.api('GET', path);
    expect(response.status).toBe(200);
    return (await response.json()) as Json;
  };
  const rowsOf = (report: Json) => report.rows as Row[];
  const follow = (link: string, userAgent: string) =>
    fetch(link, { redirect: 'manual', headers: { 'user-agent': userAgent } });

  /**
   * Real traffic over HTTP. Publisher A's model: one billed click followed again (duplicate),
   * one unclicked ad, and on a campaign with a budget for one click, a billed and an
   * over-budget click. Publisher B's first model: two bot clicks and one billed click whose
   * link is then replayed with a forged signature, and a link signed for an impression that
   * does not exist; its second model: one billed click.
   */
  beforeAll(async () => {
    t = await startTestApp({
      // Where the click rules have these settings: no minimum delay, no per-IP cap in reach.
      CLICK_MIN_SECONDS: '0',
      CLICK_IP_LIMIT_CAMPAIGN_MINUTE: '1000',
      CLICK_IP_LIMIT_PER_HOUR: '1000',
      CLICK_IP_LIMIT_PER_DAY: '1000',
    });
    operator = await t.f.operator();
    const campaign = await t.f.campaign({ keywords: 'fraud watch', bid: '0.5' });
    const budgeted = await t.f.campaign({
      keywords: 'budget watch',
      bid: '0.5',
      budgetTotal: '0.5',
      budgetDaily: '0.5',
    });
    const a = await t.f.publisherWithKey();
    const b = await t.f.publisherWithKey();
    const publishers = t.app.get(PublishersService);
    const modelB2 = await publishers.createModel(b.publisher.id, { name: 'Clean model' });
    const keyB2 = (await publishers.createApiKey(modelB2.id, 'test')).secret;
    Object.assign(ids, {
      campaign: campaign.id,
      budgeted: budgeted.id,
      a: a.publisher.id,
      b: b.publisher.id,
      modelA: a.model.id,
      modelB1: b.model.id,
      modelB2: modelB2.id,
    });
    const serve = async (key: string, keywords: string) =>
      campaignLink(await t.fetchAds(key, ask(keywords)));
    const expectRedirect = async (response: Promise<Response>) =>
      expect((await response).status).toBe(302);

    const a1 = await serve(a.key, 'fraud watch');
    await serve(a.key, 'fraud watch');
    await expectRedirect(followAsBrowser(a1));
    await expectRedirect(followAsBrowser(a1));
    const [d1, d2] = [await serve(a.key, 'budget watch'), await serve(a.key, 'budget watch')];
    await expectRedirect(followAsBrowser(d1));
    await expectRedirect(followAsBrowser(d2));

    await expectRedirect(follow(await serve(b.key, 'fraud watch'), 'curl/8.5.0'));
    await expectRedirect(follow(await serve(b.key, 'fraud watch'), 'python-requests/2.32.3'));
    const b3 = await serve(b.key, 'fraud watch');
    await expectRedirect(followAsBrowser(b3));
    const forged = new URL(b3);
    forged.searchParams.set('sig', 'A'.repeat(43));
    await expectRedirect(followAsBrowser(forged.toString()));
    const unknown = new URL(b3);
    const noImpression = { campaignId: campaign.id, modelId: b.model.id, impressionId: 'gone' };
    unknown.searchParams.set('imp', noImpression.impressionId);
    unknown.searchParams.set('sig', t.app.get(ClickLinkSigner).sign(noImpression));
    await expectRedirect(followAsBrowser(unknown.toString()));
    await expectRedirect(followAsBrowser(await serve(keyB2, 'fraud watch')));
  });
  afterAll(() => t.close());

  it('keeps every unbilled click with its reason, the forged ones included', async () => {
    const clicks = await t.dataSource.getRepository(Click).find();
    const reasons = clicks.map((c) => c.invalidReason ?? c.status).sort();
    expect(reasons).toEqual([
      'bad_signature',
      'billed',
      'billed',
      'billed',
      'billed',
      'bot',
      'bot',
      'duplicate',
      'over_budget',
      'unknown_impression',
    ]);
  });

  it("breaks a campaign's unbilled clicks down by reason, per day and in total", async () => {
    const report = await get(`/api/admin/campaigns/${ids.campaign}/stats?${range()}`);
    // The forged follows of the campaign count in its report, though they name no real
    // publisher or model (publisher and model reports below leave them out).
    const figures = {
      impressions: 6,
      clicks: 3,
      invalid_clicks: 5,
      ctr: 0.5,
      spend: 1.5,
      invalid_click_rate: 0.625,
      unbilled_by_reason: { bad_signature: 1, unknown_impression: 1, duplicate: 1, bot: 2 },
      ...NOTHING_MEASURED,
      roas: 0,
    };
    expect(rowsOf(report)).toEqual([{ date: utcDay(new Date()), ...figures }]);
    expect(report.totals).toEqual(figures);

    const budgeted = await get(`/api/admin/campaigns/${ids.budgeted}/stats?${range()}`);
    expect(budgeted.totals).toEqual({
      impressions: 2,
      clicks: 1,
      invalid_clicks: 1,
      ctr: 0.5,
      spend: 0.5,
      invalid_click_rate: 0.5,
      unbilled_by_reason: { over_budget: 1 },
      ...NOTHING_MEASURED,
      roas: 0,
    });
  });

  it('lists the forged reasons first in the campaign CSV', async () => {
    const response = await operator.api(
      'GET',
      `/api/admin/campaigns/${ids.campaign}/stats?${range()}&format=csv`,
    );
    const [header, day] = (await response.text()).split('\r\n').map((line) => line.split(','));
    const cell = (column: string) => day[header.indexOf(column)];
    expect(header.slice(7, 10)).toEqual([
      'unbilled_bad_signature',
      'unbilled_unknown_impression',
      'unbilled_mismatch',
    ]);
    expect([cell('invalid_clicks'), cell('unbilled_bad_signature'), cell('unbilled_bot')]).toEqual([
      '5',
      '1',
      '2',
    ]);
  });

  it('shows per publisher the share of invalid clicks, the CTR and the reasons', async () => {
    const report = await get(`/api/admin/reports/publishers?${range()}`);
    const of = (id: string) => rowsOf(report).find((r) => r.publisher_id === id);
    // Only real publishers: the forged follows name none.
    expect(rowsOf(report)).toHaveLength(2);
    expect(of(ids.a)).toMatchObject({
      impressions: 4,
      clicks: 2,
      invalid_clicks: 2,
      ctr: 0.5,
      invalid_click_rate: 0.5,
      unbilled_by_reason: { duplicate: 1, over_budget: 1 },
      viewed_impressions: 0,
      view_rate: 0,
      spend: 1,
      publisher_earnings: 0.7,
    });
    expect(of(ids.b)).toMatchObject({
      impressions: 4,
      clicks: 2,
      invalid_clicks: 2,
      ctr: 0.5,
      invalid_click_rate: 0.5,
      unbilled_by_reason: { bot: 2 },
      viewed_impressions: 0,
      view_rate: 0,
    });
    expect(report.totals).toMatchObject({
      impressions: 8,
      clicks: 4,
      invalid_clicks: 4,
      ctr: 0.5,
      invalid_click_rate: 0.5,
      unbilled_by_reason: { duplicate: 1, bot: 2, over_budget: 1 },
      viewed_impressions: 0,
      view_rate: 0,
      spend: 2,
      publisher_earnings: 1.4,
      platform_revenue: 0.6,
    });
  });

  it('shows per model which one sends the invalid clicks', async () => {
    const report = await get(`/api/admin/reports/models?${range()}`);
    const figures = (fields: Json) => ({
      spend: (fields.clicks as number) * 0.5,
      publisher_earnings: (fields.clicks as number) * 0.35,
      platform_revenue: (fields.clicks as number) * 0.15,
      conversions: 0,
      conversions_by_event: {},
      conversion_rate: 0,
      conversion_value: 0,
      cost_per_conversion: null,
      roas: 0,
      conversions_received: 0,
      ...fields,
    });
    expect(rowsOf(report)).toEqual([
      figures({
        publisher_id: ids.a,
        model_id: ids.modelA,
        model_name: expect.any(String) as string,
        impressions: 4,
        clicks: 2,
        invalid_clicks: 2,
        ctr: 0.5,
        invalid_click_rate: 0.5,
        unbilled_by_reason: { duplicate: 1, over_budget: 1 },
        viewed_impressions: 0,
        view_rate: 0,
      }),
      ...[
        {
          model_id: ids.modelB1,
          model_name: expect.any(String) as string,
          impressions: 3,
          clicks: 1,
          invalid_clicks: 2,
          ctr: 0.333333,
          invalid_click_rate: 0.666667,
          unbilled_by_reason: { bot: 2 },
          viewed_impressions: 0,
          view_rate: 0,
        },
        {
          model_id: ids.modelB2,
          model_name: 'Clean model',
          impressions: 1,
          clicks: 1,
          invalid_clicks: 0,
          ctr: 1,
          invalid_click_rate: 0,
          unbilled_by_reason: {},
          viewed_impressions: 0,
          view_rate: 0,
        },
      ]
        .sort((x, y) => (x.model_id < y.model_id ? -1 : 1))
        .map((row) => figures({ publisher_id: ids.b, ...row })),
    ]);
    expect(report.totals).toMatchObject({
      impressions: 8,
      clicks: 4,
      invalid_clicks: 4,
      invalid_click_rate: 0.5,
      unbilled_by_reason: { duplicate: 1, bot: 2, over_budget: 1 },
      viewed_impressions: 0,
      view_rate: 0,
    });
  });

  it('downloads the model report as CSV with a column per reason', async () => {
    const response = await operator.api('GET', `/api/admin/reports/models?${range()}&format=csv`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toMatch(
      /^attachment; filename="models-\d{4}-\d\d-\d\d-\d{4}-\d\d-\d\d\.csv"$/,
    );
    const lines = (await response.text()).split('\r\n');
    const header = lines[0].split(',');
    expect(header.slice(0, 11)).toEqual([
      'publisher_id',
      'model_id',
      'model_name',
      'impressions',
      'clicks',
      'invalid_clicks',
      'ctr',
      'spend',
      'publisher_earnings',
      'platform_revenue',
      'invalid_click_rate',
    ]);
    const cell = (line: string, column: string) => line.split(',')[header.indexOf(column)];
    const line = (modelId: string) => lines.find((l) => l.split(',')[1] === modelId)!;
    expect(cell(line(ids.modelB1), 'invalid_click_rate')).toBe('0.666667');
    expect(cell(line(ids.modelB1), 'unbilled_bot')).toBe('2');
    expect(cell(line(ids.modelB1), 'unbilled_duplicate')).toBe('0');
    expect(cell(line(ids.modelA), 'unbilled_over_budget')).toBe('1');
    const total = lines.at(-2)!;
    expect(total.startsWith('total,,,8,4,4,0.5,2,1.4,0.6,0.5,')).toBe(true);
    for (const reason of ['duplicate', 'bot', 'over_budget', 'too_fast', 'ip_limit']) {
      expect(header).toContain(`unbilled_${reason}`);
    }
    const reasonSum = header
      .filter((c) => c.startsWith('unbilled_'))
      .reduce((sum, c) => sum + Number(cell(total, c)), 0);
    expect(reasonSum).toBe(4);
    expect(lines.at(-1)).toBe('');
  });

  it('keeps every roll-up row’s reasons adding up to its unbilled clicks', async () => {
    const stats = await t.dataSource.getRepository(DailyStat).find();
    const reasons = await t.dataSource.getRepository(DailyUnbilledClick).find();
    for (const row of stats) {
      const own = reasons.filter(
        (r) => r.day === row.day && r.modelId === row.modelId && r.campaignId === row.campaignId,
      );
      expect(own.reduce((sum, r) => sum + r.clicks, 0)).toBe(row.invalidClicks);
    }
  });

  it('backfills the reasons from the raw clicks, and what was purged as unrecorded', async () => {
    const before = await get(`/api/admin/reports/models?${range()}`);
    const migration = new UnbilledClickReasons1764000100000();
    const runner = t.dataSource.createQueryRunner();
    try {
      await migration.down(runner);
      // A roll-up counted one more unbilled click than the raw clicks still show.
      await runner.query(
        'UPDATE daily_stats SET invalid_clicks = invalid_clicks + 1 WHERE model_id = ? AND campaign_id = ?',
        [ids.modelB2, ids.campaign],
      );
      await migration.up(runner);
    } finally {
      await runner.release();
    }

    const after = await get(`/api/admin/reports/models?${range()}`);
    const clean = (report: Json) => rowsOf(report).find((r) => r.model_id === ids.modelB2);
    expect(rowsOf(after).filter((r) => r.model_id !== ids.modelB2)).toEqual(
      rowsOf(before).filter((r) => r.model_id !== ids.modelB2),
    );
    expect(clean(after)).toMatchObject({
      invalid_clicks: 1,
      invalid_click_rate: 0.5,
      unbilled_by_reason: { unrecorded: 1 },
      viewed_impressions: 0,
      view_rate: 0,
    });
  });

  it('reports outlive the raw clicks and impressions', async () => {
    const before = await get(`/api/admin/reports/publishers?${range()}`);
    await t.dataSource.query('DELETE FROM clicks');
    await t.dataSource.query('DELETE FROM impressions');
    expect(await get(`/api/admin/reports/publishers?${range()}`)).toEqual(before);
  });

  it('answers 400 for a bad range and 403 to a publisher', async () => {
    await expectProblem(
      await operator.api('GET', '/api/admin/reports/models?from=2030-01-02&to=2030-01-01'),
      400,
      'validation_failed',
    );
    const publisher = await t.f.signedInPublisher();
    await expectProblem(
      await publisher.api('GET', `/api/admin/reports/models?${range()}`),
      403,
      'forbidden',
    );
  });
});
