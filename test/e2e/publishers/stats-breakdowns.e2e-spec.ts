import { utcDay } from '@/common/clock';
import type { SignedInPublisher } from '@test/factories';
import { ask, campaignLink, followAsBrowser, followWith } from '@test/support/ads';
import { expectProblem } from '@test/support/problem';
import { startTestApp, TestApp } from '@test/support/test-app';
import { testDatabaseKind } from '@test/support/test-database';

type Row = Record<string, unknown>;
interface Stats {
  rows: Row[];
  totals: Row;
}

const DAY_MS = 86_400_000;
// Yesterday to tomorrow: today's traffic is inside even if the run crosses UTC midnight.
const range = () =>
  `from=${utcDay(new Date(Date.now() - DAY_MS))}&to=${utcDay(new Date(Date.now() + DAY_MS))}`;

const figures = (r: Row) => ({
  impressions: r.impressions,
  clicks: r.clicks,
  ctr: r.ctr,
  rpm: r.rpm,
  earnings: r.earnings,
});

describe(`GET /api/stats by model, key and campaign (${testDatabaseKind()})`, () => {
  let t: TestApp;
  let me: SignedInPublisher;
  const ids = { secondKey: '', secondModel: '', cheap: '', dear: '' };

  const stats = async (query: string): Promise<Stats> => {
    const response = await me.api('GET', `/api/stats?${range()}&${query}`);
    expect(response.status).toBe(200);
    return (await response.json()) as Stats;
  };

  /**
   * Real traffic over HTTP, at a revenue share of 70 %. The first key: an ad of the dear
   * campaign (bid 1.00), clicked, and one of the cheap campaign (bid 0.20), unclicked. The
   * second key of the same model: two ads of the cheap campaign, one clicked by a person, the
   * other followed by curl (a bot: not billed). A second model: one unclicked ad.
   */
  beforeAll(async () => {
    t = await startTestApp();
    me = await t.f.signedInPublisher({ revenueShare: 0.7 });
    // Made first, so that by id it would come first: only its earnings put it second.
    const cheap = await t.f.campaign({ keywords: 'garden hose', bid: '0.20' });
    const dear = await t.f.campaign({ keywords: 'mountain bike', bid: '1.00' });
    const secondKey = await t.f.apiKey(me.model.id);
    const keys = (await (await me.api('GET', `/api/models/${me.model.id}/keys`)).json()) as {
      id: string;
      label: string | null;
    }[];
    const model = (await (await me.api('POST', '/api/models', { name: 'Second' })).json()) as {
      id: string;
    };
    const modelKey = await t.f.apiKey(model.id);
    Object.assign(ids, {
      secondKey: keys.find((k) => k.label === 'extra')!.id,
      secondModel: model.id,
      cheap: cheap.id,
      dear: dear.id,
    });
    const serve = async (key: string, keywords: string) =>
      campaignLink(await t.fetchAds(key, ask(keywords)));
    const follow = async (response: Promise<Response>) => expect((await response).status).toBe(302);

    await follow(followAsBrowser(await serve(me.key, 'mountain bike')));
    await serve(me.key, 'garden hose');
    await follow(followAsBrowser(await serve(secondKey, 'garden hose')));
    await follow(followWith(await serve(secondKey, 'garden hose'), 'curl/8.5.0'));
    await serve(modelKey, 'garden hose');
  });
  afterAll(() => t.close());

  it('answers per API key, with RPM as earnings per 1,000 impressions', async () => {
    const body = await stats(`group_by=key&model_id=${me.model.id}`);
    const byKey = Object.fromEntries(body.rows.map((r) => [r.key_id as string, r]));
    expect(Object.keys(byKey).sort()).toEqual([me.keyId, ids.secondKey].sort());
    // 1 click at 1.00 × 70 % = 0.70 over 2 impressions: 0.70 ÷ 2 × 1000 = 350.
    expect(byKey[me.keyId]).toMatchObject({
      model_id: me.model.id,
      key_label: 'test',
      impressions: 2,
      clicks: 1,
      ctr: 0.5,
      rpm: 350,
      earnings: 0.7,
      test_impressions: 0,
      test_clicks: 0,
      viewed_impressions: 0,
      view_rate: 0,
    });
    expect(byKey[me.keyId].key_prefix).toEqual(expect.stringMatching(/^adl_live_/));
    // The bot's follow is not a click: 0.20 × 70 % = 0.14 over 2 impressions, RPM 70.
    expect(figures(byKey[ids.secondKey])).toEqual({
      impressions: 2,
      clicks: 1,
      ctr: 0.5,
      rpm: 70,
      earnings: 0.14,
    });
    expect(figures(body.totals)).toEqual({
      impressions: 4,
      clicks: 2,
      ctr: 0.5,
      rpm: 210,
      earnings: 0.84,
    });
  });

  it('answers per campaign, most earnings first, with the campaign’s name', async () => {
    const body = await stats('group_by=campaign');
    expect(body.rows.map((r) => r.campaign_id)).toEqual([ids.dear, ids.cheap]);
    expect(body.rows[0]).toMatchObject({ campaign_name: expect.any(String) as string });
    expect(body.rows.map(figures)).toEqual([
      { impressions: 1, clicks: 1, ctr: 1, rpm: 700, earnings: 0.7 },
      // 0.14 over 4 impressions (one on the second model): 35 per 1,000.
      { impressions: 4, clicks: 1, ctr: 0.25, rpm: 35, earnings: 0.14 },
    ]);
  });

  it('answers per model, by model id, and adds rpm to the day rows and totals', async () => {
    const byModel = await stats('group_by=model');
    const expected = [
      { model_id: me.model.id, impressions: 4, clicks: 2, ctr: 0.5, rpm: 210, earnings: 0.84 },
      { model_id: ids.secondModel, impressions: 1, clicks: 0, ctr: 0, rpm: 0, earnings: 0 },
    ].sort((a, b) => (a.model_id < b.model_id ? -1 : 1));
    expect(byModel.rows.map((r) => ({ model_id: r.model_id, ...figures(r) }))).toEqual(expected);
    expect(byModel.rows[0]).toHaveProperty('fill_rate');
    const byDay = await stats('');
    expect(byDay.rows.map((r) => r.rpm).sort()).toEqual([0, 210]);
    expect(figures(byDay.totals)).toEqual(figures(byModel.totals));
    expect(byModel.totals).toMatchObject({ impressions: 5, clicks: 2, rpm: 168, earnings: 0.84 });
  });

  it('downloads a grouping as CSV with format=csv: its columns, amounts in units, totals last', async () => {
    const response = await me.api('GET', `/api/stats?${range()}&group_by=campaign&format=csv`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const lines = (await response.text()).split('\r\n');
    expect(lines[0]).toBe(
      'campaign_id,campaign_name,impressions,clicks,ctr,rpm,earnings,test_impressions,test_clicks,viewed_impressions,view_rate',
    );
    expect(lines[1]).toMatch(new RegExp(`^${ids.dear},[^,]+,1,1,1,700,0.7,0,0,0,0$`));
    expect(lines[3]).toBe('total,,5,2,0.4,168,0.84,0,0,0,0');
  });

  it('answers CSV to Accept: text/csv without format, and JSON when format=json says so', async () => {
    const get = (query: string, accept: string) =>
      fetch(`${t.baseUrl}/api/stats?${range()}&${query}`, {
        headers: { authorization: `Bearer ${me.token}`, accept },
      });
    const csv = await get(`group_by=key&model_id=${me.model.id}`, 'text/csv');
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const lines = (await csv.text()).split('\r\n');
    expect(lines[0]).toBe(
      'key_id,model_id,key_prefix,key_label,impressions,clicks,ctr,rpm,earnings,test_impressions,test_clicks,viewed_impressions,view_rate',
    );
    expect(lines).toContainEqual(
      expect.stringMatching(
        new RegExp(`^${me.keyId},${me.model.id},adl_live_[\\w-]{3},test,2,1,0.5,350,0.7,0,0,0,0$`),
      ),
    );
    const json = await get('format=json', 'text/csv');
    expect(json.headers.get('content-type')).toContain('application/json');
    const browser = await get('', 'text/html,application/xhtml+xml,*/*;q=0.8');
    expect(browser.headers.get('content-type')).toContain('application/json');
  });

  it('answers the operators’ reports as CSV to Accept: text/csv too', async () => {
    const operator = await t.f.operator();
    const response = await fetch(`${t.baseUrl}/api/admin/reports/publishers?${range()}`, {
      headers: { authorization: `Bearer ${operator.token}`, accept: 'text/csv' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const lines = (await response.text()).split('\r\n');
    expect(lines[0]).toMatch(/^publisher_id,publisher_name,publisher_email,impressions,/);
    expect(lines[1]).toMatch(new RegExp(`^${me.publisher.id},`));
    expect(
      (await operator.api('GET', `/api/admin/reports/publishers?${range()}`)).headers.get(
        'content-type',
      ),
    ).toContain('application/json');
  });

  it('answers 400 validation_failed naming group_by for an unknown grouping', async () => {
    const problem = await expectProblem(
      await me.api('GET', `/api/stats?${range()}&group_by=week`),
      400,
      'validation_failed',
    );
    expect(problem.errors?.map((e) => e.field)).toEqual(['group_by']);
  });
});
