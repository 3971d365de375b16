import { utcDay } from '@/common/clock';
import type { PublisherWithKey } from '@test/factories';
import { campaignLink, followAsBrowser } from '@test/support/ads';
import { expectProblem } from '@test/support/problem';
import { startTestApp, TestApp } from '@test/support/test-app';
import { testDatabaseKind } from '@test/support/test-database';

type Json = Record<string, unknown>;

describe(`a campaign's whole life through the operator API (${testDatabaseKind()})`, () => {
  let t: TestApp;
  let operator: Awaited<ReturnType<TestApp['f']['operator']>>;
  let publisher: PublisherWithKey;

  beforeAll(async () => {
    t = await startTestApp();
    operator = await t.f.operator();
    publisher = await t.f.publisherWithKey({ revenueShare: 0.7 });
  });
  afterAll(() => t.close());

  async function call(method: string, path: string, body?: unknown, status = 200): Promise<Json> {
    const response = await operator.api(method, path, body);
    expect([method, path, response.status]).toEqual([method, path, status]);
    return (await response.json()) as Json;
  }

  /** A user in Berlin at a desktop computer talking about coffee. */
  const askFromBerlin = () =>
    t.fetchAds(publisher.key, {
      conversation: 'Which espresso machine should I buy for my office?',
      context_keywords: 'espresso machine, coffee',
      user_location: 'Berlin, Germany',
      user_device_info: 'desktop',
    });
  const isServed = async () => {
    const response = await askFromBerlin();
    if (response.status === 404) {
      await expectProblem(response, 404, 'no_matching_ad');
      return false;
    }
    expect(response.status).toBe(200);
    return true;
  };

  it('creates, targets, funds, pauses, resumes, spends down to its budget, reports and archives', async () => {
    // Create: an advertiser and a paused campaign, not served yet.
    const advertiser = await call('POST', '/api/admin/advertisers', { name: 'Kaffee GmbH' }, 201);
    const created = await call(
      'POST',
      '/api/admin/campaigns',
      {
        advertiser_id: advertiser.id,
        name: 'Espresso for offices',
        text: 'Barista-grade espresso for your office.',
        target_url: 'https://kaffee.example/office',
        keywords: ['Espresso Machine', 'office coffee'],
        bid_per_click: 0.8,
        status: 'paused',
      },
      201,
    );
    const path = `/api/admin/campaigns/${String(created.id)}`;
    expect(created).toMatchObject({ status: 'paused', spent: 0, budget_total: null });
    expect(await isServed()).toBe(false);

    // Target: German-speaking countries, desktops only.
    await call('PATCH', path, { countries: ['DE', 'AT', 'CH'], devices: ['desktop'] });
    // Fund: three clicks' worth.
    await call('PATCH', path, { budget_total: 2.4 });
    // Start it: served at once, but only where it is targeted.
    await call('PATCH', path, { status: 'active' });
    expect(await isServed()).toBe(true);
    await expectProblem(
      await t.fetchAds(publisher.key, {
        conversation: 'coffee',
        context_keywords: 'espresso machine',
        user_location: 'New York, USA',
        user_device_info: 'desktop',
      }),
      404,
      'no_matching_ad',
    );

    // Pause and resume.
    expect(await call('PATCH', path, { status: 'paused' })).toMatchObject({ status: 'paused' });
    expect(await isServed()).toBe(false);
    expect(await call('PATCH', path, { status: 'active' })).toMatchObject({ status: 'active' });

    // Watch it spend down to its budget: each billed click shows in its spend.
    for (const spent of [0.8, 1.6, 2.4]) {
      await followAsBrowser(await campaignLink(await askFromBerlin()));
      expect(await call('GET', path)).toMatchObject({ spent, spent_today: spent });
    }
    // Spent: no longer served.
    expect(await isServed()).toBe(false);

    // Report on it.
    const today = utcDay(new Date());
    const stats = await call('GET', `${path}/stats?from=${today}&to=${today}`);
    const figures = {
      impressions: 4,
      clicks: 3,
      invalid_clicks: 0,
      ctr: 0.75,
      spend: 2.4,
      invalid_click_rate: 0,
      unbilled_by_reason: {},
      viewed_impressions: 0,
      view_rate: 0,
      conversions: 0,
      conversions_by_event: {},
      conversion_rate: 0,
      conversion_value: 0,
      cost_per_conversion: null,
      roas: 0, // no conversion value on 2.40 of spend
      conversions_received: 0,
    };
    expect(stats).toEqual({
      campaign_id: created.id,
      from: today,
      to: today,
      rows: [{ date: today, ...figures }],
      totals: figures,
      budget_total: 2.4,
      budget_daily: null,
      spent: 2.4,
      spent_today: 2.4,
      remaining_budget: 0,
      remaining_budget_today: null,
    });
    const csv = await operator.api('GET', `${path}/stats?from=${today}&to=${today}&format=csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toMatch(/^attachment; filename="campaign-/);
    const lines = (await csv.text()).split('\r\n');
    expect(lines[0]).toMatch(
      /^date,impressions,clicks,invalid_clicks,ctr,spend,invalid_click_rate,unbilled_/,
    );
    // Trailing zeros and empty cells (no cost per conversion without conversions) cut off.
    expect(lines.slice(1).map((line) => line.replace(/(,0?)+$/, ''))).toEqual([
      `${today},4,3,0,0.75,2.4`,
      'total,4,3,0,0.75,2.4',
      '',
    ]);
    const platform = await call('GET', `/api/admin/reports/publishers?from=${today}&to=${today}`);
    expect(platform.rows).toEqual([
      expect.objectContaining({
        publisher_id: publisher.publisher.id,
        clicks: 3,
        spend: 2.4,
        publisher_earnings: 1.68,
        platform_revenue: 0.72,
      }),
    ]);

    // Topping the budget up serves it again at once.
    await call('PATCH', path, { budget_total: 3.2 });
    expect(await isServed()).toBe(true);

    // Archive it: no longer served, and final.
    expect(await call('PATCH', path, { status: 'archived' })).toMatchObject({ status: 'archived' });
    expect(await isServed()).toBe(false);
    await expectProblem(
      await operator.api('PATCH', path, { status: 'active' }),
      409,
      'campaign_archived',
    );
    const archived = await call(
      'GET',
      `/api/admin/campaigns?status=archived&keyword=office%20coffee`,
    );
    expect((archived.items as Json[]).map((c) => c.id)).toEqual([created.id]);

    // The audit tells the story, newest first.
    const audit = await call('GET', `${path}/audit`);
    expect((audit.items as Json[]).map((e) => [e.field ?? e.action, e.new_value])).toEqual([
      ['status', 'archived'],
      ['budget_total', 3.2],
      ['status', 'active'],
      ['status', 'paused'],
      ['status', 'active'],
      ['budget_total', 2.4],
      ['countries', ['DE', 'AT', 'CH']],
      ['devices', ['desktop']],
      ['created', expect.objectContaining({ status: 'paused', bid_per_click: 0.8 })],
    ]);
    expect(new Set((audit.items as Json[]).map((e) => e.actor_id))).toEqual(
      new Set([operator.publisher.id]),
    );
  });
});
