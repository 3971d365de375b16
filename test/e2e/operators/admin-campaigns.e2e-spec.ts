import type { SignedIn } from '@test/factories';
import { body, campaignCalls, type Json, operatorWithAdvertiser } from '@test/support/operator-api';
import { expectProblem } from '@test/support/problem';
import { startTestApp, TestApp } from '@test/support/test-app';
import { testDatabaseKind } from '@test/support/test-database';

describe(`operator API: advertisers and campaigns (${testDatabaseKind()})`, () => {
  let t: TestApp;
  let operator: SignedIn;
  let advertiserId: string;

  beforeAll(async () => {
    t = await startTestApp();
    ({ operator, advertiserId } = await operatorWithAdvertiser(t));
  });
  afterAll(() => t.close());

  const { campaignBody, create, fetchAd } = campaignCalls(() => ({ t, operator, advertiserId }));

  describe('creating a campaign', () => {
    it('answers 201 with the documented shape: decimal money, normalised keywords, upper-case countries', async () => {
      const created = await create({
        keywords: ['  Hiking   BOOTS', 'hiking boots', 'ＴＲＡＩＬ'],
        bid_per_click: 0.35,
        budget_total: 100,
        budget_daily: 10.5,
        image_url: 'https://shop.example/boots.png',
        starts_at: '2026-01-01T00:00:00+01:00',
        ends_at: '2099-01-01T00:00:00Z',
        countries: ['de', 'AT', 'DE'],
        devices: ['mobile', 'mobile', 'tablet'],
      });
      expect(created).toEqual({
        id: expect.any(String),
        advertiser_id: advertiserId,
        name: expect.any(String),
        text: 'Waterproof boots.',
        image_url: 'https://shop.example/boots.png',
        target_url: expect.stringMatching(/^https:\/\/shop\.example\/offer\//),
        category: null,
        keywords: ['hiking boots', 'trail'],
        keyword_translations: {},
        bid_per_click: 0.35,
        budget_total: 100,
        budget_daily: 10.5,
        spent: 0,
        spent_today: 0,
        starts_at: '2025-12-31T23:00:00.000Z',
        ends_at: '2099-01-01T00:00:00.000Z',
        countries: ['DE', 'AT'],
        devices: ['mobile', 'tablet'],
        status: 'active',
        click_id_param: 'adl_click',
        attribution_window_days: 30,
        created_at: expect.any(String),
      });
      const read = await body(
        await operator.api('GET', `/api/admin/campaigns/${String(created.id)}`),
        200,
      );
      expect(read).toEqual({
        ...created,
        pixel: { gif_url: expect.any(String), script_url: expect.any(String) },
      });
    });

    it('is served by fetch-ads as soon as the create call returns', async () => {
      await create({ keywords: ['paddle board'], bid_per_click: 0.4 });
      const { key } = await t.f.publisherWithKey();
      const response = await fetchAd(key, 'paddle board');
      expect(response.status).toBe(200);
      const ad = ((await response.json()) as { advertisements: Json[] }).advertisements[0];
      expect(ad.bid_per_click).toBe(0.4);
    });

    it.each([
      ['target_url', 'a javascript: URL', { target_url: 'javascript:alert(1)' }],
      ['target_url', 'an ftp URL', { target_url: 'ftp://shop.example/x' }],
      [
        'target_url',
        'a URL over 2048 characters',
        { target_url: `https://shop.example/${'a'.repeat(2040)}` },
      ],
      ['image_url', 'a data: URL', { image_url: 'data:image/png;base64,AAAA' }],
      ['keywords', 'no keywords', { keywords: [] }],
      ['keywords', 'a blank keyword', { keywords: ['   '] }],
      ['keywords', '101 keywords', { keywords: Array.from({ length: 101 }, (_, i) => `k${i}`) }],
      ['keywords', 'a string instead of a list', { keywords: 'boots' }],
      ['bid_per_click', 'a zero bid', { bid_per_click: 0 }],
      ['bid_per_click', 'a negative bid', { bid_per_click: -1 }],
      ['bid_per_click', 'seven decimals', { bid_per_click: 0.1234567 }],
      ['bid_per_click', 'a bid as text', { bid_per_click: '0.35' }],
      ['budget_total', 'a total budget below the bid', { budget_total: 0.1 }],
      ['budget_daily', 'a daily budget below the bid', { budget_daily: 0.34 }],
      [
        'ends_at',
        'an end before the start',
        { starts_at: '2027-01-02T00:00:00Z', ends_at: '2027-01-01T00:00:00Z' },
      ],
      ['starts_at', 'a time without a zone', { starts_at: '2027-01-02T00:00:00' }],
      ['countries', 'an unknown country', { countries: ['XX'] }],
      ['countries', 'an alpha-3 code', { countries: ['DEU'] }],
      ['devices', 'an unknown device', { devices: ['smartwatch'] }],
      ['status', 'creating it archived', { status: 'archived' }],
      ['name', 'an empty name', { name: '' }],
      ['advertiser_id', 'no advertiser', { advertiser_id: undefined }],
    ])('answers 400 validation_failed naming %s for %s', async (field, _case, overrides) => {
      const problem = await expectProblem(
        await operator.api('POST', '/api/admin/campaigns', campaignBody(overrides)),
        400,
        'validation_failed',
      );
      expect(problem.errors?.map((e) => e.field)).toContain(field);
    });

    it('answers 400 naming advertiser_id when no advertiser has that id', async () => {
      const problem = await expectProblem(
        await operator.api('POST', '/api/admin/campaigns', campaignBody({ advertiser_id: 'nope' })),
        400,
        'validation_failed',
      );
      expect(problem.errors).toEqual([
        { field: 'advertiser_id', message: 'advertiser_id names no advertiser' },
      ]);
    });

    it('accepts a budget equal to the bid, and a 2048-character URL', async () => {
      const url = `https://shop.example/${'a'.repeat(2048 - 'https://shop.example/'.length)}`;
      const created = await create({
        bid_per_click: 1.5,
        budget_total: 1.5,
        budget_daily: 1.5,
        target_url: url,
      });
      expect(created).toMatchObject({ budget_total: 1.5, budget_daily: 1.5, target_url: url });
    });
  });

  describe('listing campaigns', () => {
    it('filters by status, advertiser and keyword, newest first, a page at a time', async () => {
      const advertiser = await body(
        await operator.api('POST', '/api/admin/advertisers', { name: 'Listed' }),
        201,
      );
      const mine = { advertiser_id: advertiser.id };
      const a = await create({ ...mine, keywords: ['Tent', 'stove'] });
      const b = await create({ ...mine, keywords: ['tent pegs'] });
      const c = await create({ ...mine, keywords: ['tent'], status: 'paused' });
      const list = async (query: string) =>
        body(
          await operator.api(
            'GET',
            `/api/admin/campaigns?advertiser_id=${String(advertiser.id)}&${query}`,
          ),
          200,
        );

      const all = await list('');
      expect(all).toMatchObject({ page: 1, per_page: 50, total: 3 });
      expect((all.items as Json[]).map((x) => x.id)).toEqual([c.id, b.id, a.id]);
      expect((await list('keyword=TENT')).items).toEqual([
        expect.objectContaining({ id: c.id }),
        expect.objectContaining({ id: a.id }),
      ]);
      expect((await list('keyword=tent&status=active')).items).toEqual([
        expect.objectContaining({ id: a.id }),
      ]);
      expect((await list('keyword=50%25')).total).toBe(0);
      const second = await list('per_page=2&page=2');
      expect(second).toMatchObject({ page: 2, per_page: 2, total: 3 });
      expect((second.items as Json[]).map((x) => x.id)).toEqual([a.id]);
    });

    it('answers 400 for a bad filter or page', async () => {
      await expectProblem(
        await operator.api('GET', '/api/admin/campaigns?status=running'),
        400,
        'validation_failed',
      );
      await expectProblem(
        await operator.api('GET', '/api/admin/campaigns?per_page=101'),
        400,
        'validation_failed',
      );
      await expectProblem(
        await operator.api('GET', '/api/admin/campaigns?page=0'),
        400,
        'validation_failed',
      );
    });
  });
});
