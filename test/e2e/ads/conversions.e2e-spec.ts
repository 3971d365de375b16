import { Clock } from '@/common/clock';
import { Conversion } from '@/conversions/entities/conversion.entity';
import type { SignedIn } from '@test/factories';
import { ask, campaignLink, followAsBrowser, followWith } from '@test/support/ads';
import { body } from '@test/support/operator-api';
import { expectProblem } from '@test/support/problem';
import { startTestApp, TestApp } from '@test/support/test-app';
import { testDatabaseKind } from '@test/support/test-database';

type Results = {
  results: { event_id: string; status: string; code?: string; conversion_id?: string }[];
};

describe(`POST /api/conversions (${testDatabaseKind()})`, () => {
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
      (
        await body(
          await operator.api('POST', `/api/admin/advertisers/${advertiserId}/keys`, {}),
          201,
        )
      ).key,
    );

  /** A campaign of a fresh advertiser with a key, and a click id of its ad, followed as `ua`. */
  async function clicked(ua: string | null = 'browser', options: { test?: boolean } = {}) {
    const keywords = `convert${++n}`;
    const campaign = await t.f.campaign({ keywords, targetUrl: `https://shop.example/${n}` });
    const publisher = await t.f.publisherWithKey();
    const apiKey = options.test ? await t.f.apiKey(publisher.model.id, 'test') : publisher.key;
    const link = await campaignLink(await t.fetchAds(apiKey, ask(keywords)));
    const response = ua === 'browser' ? await followAsBrowser(link) : await followWith(link, ua);
    const clickId = new URL(response.headers.get('location')!).searchParams.get('adl_click')!;
    return { campaign, clickId, key: await keyOf(campaign.advertiserId) };
  }

  const post = (key: string, payload: unknown) =>
    t.http('/api/conversions', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify(payload),
    });
  const results = async (response: Response) =>
    ((await body(response, 200)) as unknown as Results).results;
  const purchase = (clickId: string, eventId: string, extra: Record<string, unknown> = {}) => ({
    click_id: clickId,
    event: 'purchase',
    event_id: eventId,
    occurred_at: new Date().toISOString(),
    value: 49.9,
    currency: 'EUR',
    ...extra,
  });
  const stored = (campaignId: string) =>
    t.dataSource.getRepository(Conversion).findBy({ campaignId });

  it("accepts a conversion of the advertiser's click once; the same event_id again is a duplicate", async () => {
    const { campaign, clickId, key } = await clicked();
    const [first] = await results(await post(key, purchase(clickId, 'order-1')));
    expect(first).toMatchObject({ event_id: 'order-1', status: 'accepted' });
    const [again] = await results(await post(key, purchase(clickId, 'order-1')));
    expect(again).toEqual({
      event_id: 'order-1',
      status: 'duplicate',
      conversion_id: first.conversion_id,
    });
    const rows = await stored(campaign.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      id: first.conversion_id,
      advertiserId: campaign.advertiserId,
      event: 'purchase',
      valueMicros: 49_900_000,
      currency: 'EUR',
      source: 'api',
    });
    expect(rows[0].publisherId).not.toBeNull();
  });

  it("answers another advertiser's click id exactly as an unknown or forged one", async () => {
    const mine = await clicked();
    const theirs = await clicked();
    const answers = await results(
      await post(mine.key, {
        conversions: [
          purchase(theirs.clickId, 'x-1'),
          purchase(`${mine.clickId.slice(0, -2)}AA`, 'x-2'),
          purchase('nothing-like-a-click', 'x-3'),
        ],
      }),
    );
    expect(answers).toEqual(
      ['x-1', 'x-2', 'x-3'].map((id) => ({
        event_id: id,
        status: 'rejected',
        code: 'click_not_found',
      })),
    );
    expect(await stored(theirs.campaign.id)).toHaveLength(0);
  });

  it('rejects a click judged invalid (a curl-like client) and a test-key click as click_invalid', async () => {
    const curl = await clicked('curl/8.5.0');
    const [a] = await results(await post(curl.key, purchase(curl.clickId, 'c-1')));
    expect(a).toMatchObject({ status: 'rejected', code: 'click_invalid' });
    const test = await clicked('browser', { test: true });
    const [b] = await results(await post(test.key, purchase(test.clickId, 't-1')));
    expect(b).toMatchObject({ status: 'rejected', code: 'click_invalid' });
  });

  it("rejects a conversion before its click or after the campaign's attribution window", async () => {
    const { clickId, key } = await clicked();
    const before = purchase(clickId, 'w-1', { occurred_at: '2020-01-01T00:00:00Z' });
    const clock = t.app.get(Clock);
    const realNow = clock.now.bind(clock);
    const later = new Date(Date.now() + 31 * 24 * 3600 * 1000);
    clock.now = () => later;
    try {
      const late = purchase(clickId, 'w-2', { occurred_at: later.toISOString() });
      const answers = await results(await post(key, { conversions: [before, late] }));
      expect(answers.map((r) => r.code)).toEqual([
        'outside_attribution_window',
        'outside_attribution_window',
      ]);
    } finally {
      clock.now = realNow;
    }
  });

  it('answers a batch of mixed items one by one, in order', async () => {
    const { clickId, key } = await clicked();
    const answers = await results(
      await post(key, {
        conversions: [
          purchase(clickId, 'm-1'),
          { event: 'purchase' },
          purchase(clickId, 'm-1'),
          purchase(clickId, 'm-2', { value: 1.234 }),
          purchase(clickId, 'm-3', { occurred_at: new Date(Date.now() + 3600_000).toISOString() }),
          purchase(clickId, 'm-4', { event: 'Sign Up' }),
          purchase(clickId, 'm-5', { value: undefined, currency: undefined }),
        ],
      }),
    );
    expect(answers.map((r) => [r.status, r.code])).toEqual([
      ['accepted', undefined],
      ['rejected', 'validation_failed'],
      ['duplicate', undefined],
      ['rejected', 'validation_failed'],
      ['rejected', 'validation_failed'],
      ['rejected', 'validation_failed'],
      ['accepted', undefined],
    ]);
    expect(answers[2].conversion_id).toBe(answers[0].conversion_id);
  });

  it('accepts a full batch of 1,000 conversions, each answered on its own', async () => {
    const { campaign, clickId, key } = await clicked();
    const batch = Array.from({ length: 1000 }, (_, i) =>
      purchase(clickId, `full-batch-order-${String(i).padStart(4, '0')}-of-a-long-id`),
    );
    expect(JSON.stringify({ conversions: batch }).length).toBeGreaterThan(64 * 1024);
    const answers = await results(await post(key, { conversions: batch }));
    expect(answers).toHaveLength(1000);
    expect(answers.every((r) => r.status === 'accepted')).toBe(true);
    expect(await stored(campaign.id)).toHaveLength(1000);
  });

  it('refuses an empty batch or one of 1,001 items (400)', async () => {
    const { key } = await clicked();
    await expectProblem(await post(key, { conversions: [] }), 400, 'validation_failed');
    const tooMany = Array.from({ length: 1001 }, () => ({}));
    await expectProblem(await post(key, { conversions: tooMany }), 400, 'validation_failed');
  });

  it('answers a revoked key 404 invalid_api_key', async () => {
    const { campaign, clickId } = await clicked();
    const created = await body(
      await operator.api('POST', `/api/admin/advertisers/${campaign.advertiserId}/keys`, {}),
      201,
    );
    await operator.api(
      'DELETE',
      `/api/admin/advertisers/${campaign.advertiserId}/keys/${String(created.id)}`,
    );
    await expectProblem(
      await post(String(created.key), purchase(clickId, 'r-1')),
      404,
      'invalid_api_key',
    );
  });

  it('accepts exactly one of 10 simultaneous posts of one event_id', async () => {
    const { campaign, clickId, key } = await clicked();
    const answers = await Promise.all(
      Array.from(
        { length: 10 },
        async () => (await results(await post(key, purchase(clickId, 'p-1'))))[0],
      ),
    );
    expect(answers.filter((a) => a.status === 'accepted')).toHaveLength(1);
    expect(answers.filter((a) => a.status === 'duplicate')).toHaveLength(9);
    expect(new Set(answers.map((a) => a.conversion_id)).size).toBe(1);
    expect(await stored(campaign.id)).toHaveLength(1);
  });
});
