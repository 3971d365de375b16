import { utcDay } from '@/common/clock';
import { FillStatsRecorder } from '@/earnings/fill-stats-recorder.service';
import { ask, campaignLink, followAsBrowser } from '@test/support/ads';
import { expectProblem } from '@test/support/problem';
import { startTestApp, TestApp } from '@test/support/test-app';
import { testDatabaseKind } from '@test/support/test-database';

interface StatsRow {
  model_id: string;
  impressions: number;
  clicks: number;
  ctr: number;
  earnings: number;
}

describe(`a publisher's first day, through the API alone (${testDatabaseKind()})`, () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('registers, adds two models, holds two keys on one, revokes one, keeps serving, and reads matching statistics', async () => {
    const firstDay = utcDay(new Date());
    // Campaigns come from operators (the operator API); here they are test data.
    await t.f.campaign({ keywords: 'espresso', bid: '0.40' });

    const registered = await t.http('/api/auth/register', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: 'barista@example.test',
        password: 'a long password',
        name: 'Barista AI',
      }),
    });
    expect(registered.status).toBe(201);
    const { access_token: token } = (await registered.json()) as { access_token: string };
    const api = async (method: string, path: string, body?: unknown) =>
      t.http(path, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    expect(await (await api('GET', '/api/publisher')).json()).toMatchObject({
      email: 'barista@example.test',
      revenue_share: 0.7,
    });

    const model = async (name: string) => {
      const response = await api('POST', '/api/models', { name, link: 'https://barista.example' });
      expect(response.status).toBe(201);
      return ((await response.json()) as { id: string }).id;
    };
    const chat = await model('Barista Chat');
    const voice = await model('Barista Voice');
    const key = async (modelId: string, label: string) => {
      const response = await api('POST', `/api/models/${modelId}/keys`, { label });
      expect(response.status).toBe(201);
      return (await response.json()) as { id: string; key: string };
    };
    const oldChatKey = await key(chat, 'old');
    const newChatKey = await key(chat, 'new');
    const voiceKey = await key(voice, 'voice');

    expect((await api('DELETE', `/api/models/${chat}/keys/${oldChatKey.id}`)).status).toBe(204);
    await expectProblem(await t.fetchAds(oldChatKey.key, ask('espresso')), 404, 'invalid_api_key');

    // Chat serves three ads, one of which a person follows; voice serves one, never followed.
    const links: string[] = [];
    for (let i = 0; i < 3; i++)
      links.push(await campaignLink(await t.fetchAds(newChatKey.key, ask('espresso'))));
    await campaignLink(await t.fetchAds(voiceKey.key, ask('espresso')));
    expect((await followAsBrowser(links[1])).status).toBe(302);

    const lastDay = utcDay(new Date());
    // The requests' outcomes, counted in memory, are written every few seconds; now, here.
    await t.app.get(FillStatsRecorder).flush();
    const stats = await api('GET', `/api/stats?from=${firstDay}&to=${lastDay}`);
    expect(stats.status).toBe(200);
    const body = (await stats.json()) as { rows: StatsRow[]; totals: Omit<StatsRow, 'model_id'> };
    const of = (modelId: string) => {
      const rows = body.rows.filter((r) => r.model_id === modelId);
      return {
        impressions: rows.reduce((n, r) => n + r.impressions, 0),
        clicks: rows.reduce((n, r) => n + r.clicks, 0),
        earnings: rows.reduce((n, r) => n + r.earnings, 0),
      };
    };
    // Earnings = bid × share = 0.40 × 0.7.
    expect(of(chat)).toEqual({ impressions: 3, clicks: 1, earnings: 0.28 });
    expect(of(voice)).toEqual({ impressions: 1, clicks: 0, earnings: 0 });
    // Live keys only: no test traffic to show apart.
    const noTest = { test_impressions: 0, test_clicks: 0 };
    // Every request of a valid key got an ad; the revoked key's was no request of the model.
    const allFilled = (n: number) => ({ requests: n, fills: n, fill_rate: 1, no_fills: {} });
    expect(body.totals).toEqual({
      impressions: 4,
      clicks: 1,
      ctr: 0.25,
      earnings: 0.28,
      // Earnings per 1,000 impressions: 0.28 / 4 × 1,000.
      rpm: 70,
      // No view_url was called.
      viewed_impressions: 0,
      view_rate: 0,
      ...noTest,
      ...allFilled(4),
    });

    const chatOnly = (await (
      await api('GET', `/api/stats?from=${firstDay}&to=${lastDay}&model_id=${chat}`)
    ).json()) as { totals: Omit<StatsRow, 'model_id'> };
    expect(chatOnly.totals).toEqual({
      impressions: 3,
      clicks: 1,
      ctr: 0.333333,
      earnings: 0.28,
      rpm: 93.333333,
      viewed_impressions: 0,
      view_rate: 0,
      ...noTest,
      ...allFilled(3),
    });
  });
});
