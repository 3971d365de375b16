import { Clock, utcDay } from '@/common/clock';
import type { SignedIn } from '@test/factories';
import { ask, followAsBrowser } from '@test/support/ads';
import { body, type Json } from '@test/support/operator-api';
import { startTestApp, TestApp } from '@test/support/test-app';
import { testDatabaseKind } from '@test/support/test-database';

type Ad = { campaign_link: string; view_url: string };

const DAY_MS = 86_400_000;

/** A report's conversion figures where none was converted, without `roas` (null without spend). */
const NOTHING_CONVERTED = {
  conversions: 0,
  conversions_by_event: {},
  conversion_rate: 0,
  conversion_value: 0,
  cost_per_conversion: null,
  conversions_received: 0,
};

describe(`Measuring an ad: served, viewed, clicked, converted, reported (${testDatabaseKind()})`, () => {
  let t: TestApp;
  let operator: SignedIn;
  let n = 0;

  beforeAll(async () => {
    t = await startTestApp();
    operator = await t.f.operator();
  });
  afterAll(() => t.close());

  const keyOf = async (advertiserId: string) =>
    String(
      (await body(await operator.api('POST', `/api/admin/advertisers/${advertiserId}/keys`), 201))
        .key,
    );

  /** A campaign ($0.50 a click) of a fresh advertiser with a key, and a publisher serving it. */
  async function advertised() {
    const keywords = `journey${++n}`;
    const campaign = await t.f.campaign({ keywords, targetUrl: `https://shop.example/j${n}` });
    const publisher = await t.f.publisherWithKey();
    return { campaign, publisher, keywords, key: await keyOf(campaign.advertiserId) };
  }

  async function serve(apiKey: string, keywords: string): Promise<Ad> {
    const response = await t.fetchAds(apiKey, ask(keywords));
    expect(response.status).toBe(200);
    return ((await response.json()) as { advertisements: Ad[] }).advertisements[0];
  }

  /** Follows the ad's link like a browser; the click id its landing URL carries. */
  async function click(ad: Ad): Promise<string> {
    const landing = (await followAsBrowser(ad.campaign_link)).headers.get('location')!;
    expect(landing).toMatch(/^https:\/\/shop\.example\/j\d+\?adl_click=[\w-]+$/);
    return new URL(landing).searchParams.get('adl_click')!;
  }

  const convert = async (key: string, conversion: Json) => {
    const response = await t.http('/api/conversions', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify(conversion),
    });
    return ((await body(response, 200)) as { results: Json[] }).results;
  };

  const purchase = (clickId: string, eventId: string) => ({
    click_id: clickId,
    event: 'purchase',
    event_id: eventId,
    occurred_at: new Date().toISOString(),
    value: 49.9,
    currency: 'USD',
  });

  const report = async (campaignId: string, from: string, to: string, csv = false) =>
    operator.api(
      'GET',
      `/api/admin/campaigns/${campaignId}/stats?from=${from}&to=${to}${csv ? '&format=csv' : ''}`,
    );

  it('reports one viewed impression, one click and one conversion with its value, cost and ROAS', async () => {
    const { campaign, publisher, keywords, key } = await advertised();
    const ad = await serve(publisher.key, keywords);
    expect((await fetch(ad.view_url, { method: 'POST' })).status).toBe(204);
    const clickId = await click(ad);

    const eventId = `order-${n}`;
    const [first] = await convert(key, purchase(clickId, eventId));
    expect(first).toMatchObject({ event_id: eventId, status: 'accepted' });
    const [again] = await convert(key, purchase(clickId, eventId));
    expect(again).toEqual({
      event_id: eventId,
      status: 'duplicate',
      conversion_id: first.conversion_id,
    });
    const other = await advertised();
    const [theirs] = await convert(other.key, purchase(clickId, 'theirs-1'));
    expect(theirs).toEqual({ event_id: 'theirs-1', status: 'rejected', code: 'click_not_found' });
    const read = await body(await operator.api('GET', `/api/admin/campaigns/${campaign.id}`), 200);
    const gif = (read.pixel as { gif_url: string }).gif_url;
    const pixel = await fetch(
      `${gif}&event=purchase&event_id=${eventId}&value=49.90&currency=USD&click_id=${clickId}`,
    );
    expect(pixel.status).toBe(200);

    const today = utcDay(new Date());
    const figures = {
      impressions: 1,
      clicks: 1,
      invalid_clicks: 0,
      ctr: 1,
      spend: 0.5,
      invalid_click_rate: 0,
      unbilled_by_reason: {},
      viewed_impressions: 1,
      view_rate: 1,
      conversions: 1,
      conversions_by_event: { purchase: 1 },
      conversion_rate: 1,
      conversion_value: 49.9,
      cost_per_conversion: 0.5,
      roas: 99.8, // 49.90 ÷ 0.50
      conversions_received: 1,
    };
    const stats = await body(await report(campaign.id, today, today), 200);
    expect(stats.rows).toEqual([{ date: today, ...figures }]);
    expect(stats.totals).toEqual(figures);

    const lines = (await (await report(campaign.id, today, today, true)).text()).split('\r\n');
    const header = lines[0].split(',');
    const cells = (line: string) =>
      Object.fromEntries(line.split(',').map((cell, i) => [header[i], cell]));
    const csvFigures = {
      impressions: '1',
      clicks: '1',
      spend: '0.5',
      viewed_impressions: '1',
      view_rate: '1',
      conversions: '1',
      conversion_rate: '1',
      conversion_value: '49.9',
      cost_per_conversion: '0.5',
      roas: '99.8',
      conversions_received: '1',
      event_purchase: '1',
    };
    expect(cells(lines[1])).toMatchObject({ date: today, ...csvFigures });
    expect(cells(lines[2])).toMatchObject({ date: 'total', ...csvFigures });

    // The platform's model report counts it for the model that showed the ad.
    const models = await body(
      await operator.api('GET', `/api/admin/reports/models?from=${today}&to=${today}`),
      200,
    );
    const row = (models.rows as Json[]).find((r) => r.model_id === publisher.model.id);
    expect(row).toMatchObject({ conversions: 1, conversion_value: 49.9, roas: 99.8 });
  });

  it("counts a late conversion on its click's day under conversions and today under conversions_received", async () => {
    const { campaign, publisher, keywords, key } = await advertised();
    const clock = t.app.get(Clock);
    const realNow = clock.now.bind(clock);
    const threeDaysAgo = new Date(realNow().getTime() - 3 * DAY_MS);
    clock.now = () => new Date(realNow().getTime() - 3 * DAY_MS);
    let clickId: string;
    try {
      clickId = await click(await serve(publisher.key, keywords));
    } finally {
      clock.now = realNow;
    }
    const [accepted] = await convert(key, purchase(clickId, `late-${n}`));
    expect(accepted).toMatchObject({ status: 'accepted' });

    const today = utcDay(new Date());
    const clickDay = utcDay(threeDaysAgo);
    const stats = await body(await report(campaign.id, clickDay, today), 200);
    const clicked = {
      impressions: 1,
      clicks: 1,
      invalid_clicks: 0,
      ctr: 1,
      spend: 0.5,
      invalid_click_rate: 0,
      unbilled_by_reason: {},
      viewed_impressions: 0,
      view_rate: 0,
    };
    const quiet = { ...clicked, impressions: 0, clicks: 0, ctr: 0, spend: 0 };
    expect(stats.rows).toEqual([
      {
        date: clickDay,
        ...clicked,
        conversions: 1,
        conversions_by_event: { purchase: 1 },
        conversion_rate: 1,
        conversion_value: 49.9,
        cost_per_conversion: 0.5,
        roas: 99.8,
        conversions_received: 0,
      },
      // Nothing else happened today: the row is there for the conversion that came in.
      { date: today, ...quiet, ...NOTHING_CONVERTED, roas: null, conversions_received: 1 },
    ]);
    expect(stats.totals).toMatchObject({ conversions: 1, conversions_received: 1, roas: 99.8 });

    // Today alone: what came in today, none of it earned by today's (no) clicks.
    const todayOnly = await body(await report(campaign.id, today, today), 200);
    expect(todayOnly.totals).toMatchObject({
      ...quiet,
      ...NOTHING_CONVERTED,
      roas: null,
      conversions_received: 1,
    });
    const models = await body(
      await operator.api('GET', `/api/admin/reports/models?from=${today}&to=${today}`),
      200,
    );
    expect((models.rows as Json[]).find((r) => r.model_id === publisher.model.id)).toMatchObject({
      model_name: publisher.model.name,
      impressions: 0,
      conversions: 0,
      conversions_received: 1,
    });
  });
});
