import type { SignedIn } from '../factories';
import { expectProblem } from '../support/problem';
import { startTestApp, TestApp } from '../support/test-app';
import { testDatabaseKind } from '../support/test-database';

type Json = Record<string, unknown>;

describe(`operator API: advertisers and campaigns (${testDatabaseKind()})`, () => {
  let t: TestApp;
  let operator: SignedIn;
  let advertiserId: string;

  beforeAll(async () => {
    t = await startTestApp();
    operator = await t.f.operator();
    advertiserId = (
      await body(await operator.api('POST', '/api/admin/advertisers', { name: 'Acme' }))
    ).id as string;
  });
  afterAll(() => t.close());

  async function body(response: Response, status?: number): Promise<Json> {
    if (status !== undefined) expect(response.status).toBe(status);
    return (await response.json()) as Json;
  }

  let n = 0;
  /** A valid create body for a campaign of the shared advertiser; `overrides` replace fields. */
  const campaignBody = (overrides: Json = {}): Json => ({
    advertiser_id: advertiserId,
    name: `Campaign ${++n}`,
    text: 'Waterproof boots.',
    target_url: `https://shop.example/offer/${n}`,
    keywords: [`keyword${n}`],
    bid_per_click: 0.35,
    ...overrides,
  });

  const create = async (overrides: Json = {}) =>
    body(await operator.api('POST', '/api/admin/campaigns', campaignBody(overrides)), 201);
  const patch = (id: unknown, changes: Json) =>
    operator.api('PATCH', `/api/admin/campaigns/${String(id)}`, changes);
  const fetchAd = async (key: string, keywords: string) =>
    t.fetchAds(key, { conversation: 'hello', context_keywords: keywords });

  describe('advertisers', () => {
    it('creates, reads, lists and updates an advertiser', async () => {
      const created = await body(
        await operator.api('POST', '/api/admin/advertisers', {
          name: '  Globex  ',
          contact_email: 'ADS@Globex.example',
        }),
        201,
      );
      expect(created).toEqual({
        id: expect.any(String),
        name: 'Globex',
        contact_email: 'ads@globex.example',
        status: 'active',
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      const read = await body(
        await operator.api('GET', `/api/admin/advertisers/${String(created.id)}`),
        200,
      );
      expect(read).toEqual(created);

      const updated = await body(
        await operator.api('PATCH', `/api/admin/advertisers/${String(created.id)}`, {
          name: 'Globex Corp',
          contact_email: null,
          status: 'inactive',
        }),
        200,
      );
      expect(updated).toMatchObject({
        name: 'Globex Corp',
        contact_email: null,
        status: 'inactive',
      });

      const list = await body(
        await operator.api('GET', '/api/admin/advertisers?status=inactive&per_page=10'),
        200,
      );
      expect(list).toMatchObject({ page: 1, per_page: 10 });
      expect((list.items as Json[]).map((a) => a.id)).toContain(created.id);
      expect((list.items as Json[]).every((a) => a.status === 'inactive')).toBe(true);
    });

    it('answers 404 advertiser_not_found for an unknown advertiser, and 400 for a bad body', async () => {
      await expectProblem(
        await operator.api('GET', '/api/admin/advertisers/nope'),
        404,
        'advertiser_not_found',
      );
      await expectProblem(
        await operator.api('PATCH', '/api/admin/advertisers/nope', { name: 'x' }),
        404,
        'advertiser_not_found',
      );
      const problem = await expectProblem(
        await operator.api('POST', '/api/admin/advertisers', {
          name: '',
          contact_email: 'not-an-email',
        }),
        400,
        'validation_failed',
      );
      expect(problem.errors?.map((e) => e.field).sort()).toEqual(['contact_email', 'name']);
      await expectProblem(
        await operator.api('PATCH', `/api/admin/advertisers/${advertiserId}`, { name: null }),
        400,
        'validation_failed',
      );
    });

    it('stops serving every campaign of an inactive advertiser, and resumes when it is active again', async () => {
      const advertiser = await body(
        await operator.api('POST', '/api/admin/advertisers', { name: 'Initech' }),
        201,
      );
      await create({ advertiser_id: advertiser.id, keywords: ['stapler'] });
      const { key } = await t.f.publisherWithKey();
      expect((await fetchAd(key, 'stapler')).status).toBe(200);
      await operator.api('PATCH', `/api/admin/advertisers/${String(advertiser.id)}`, {
        status: 'inactive',
      });
      await expectProblem(await fetchAd(key, 'stapler'), 404, 'no_matching_ad');
      await operator.api('PATCH', `/api/admin/advertisers/${String(advertiser.id)}`, {
        status: 'active',
      });
      expect((await fetchAd(key, 'stapler')).status).toBe(200);
    });
  });

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
        keywords: ['hiking boots', 'trail'],
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
        created_at: expect.any(String),
      });
      const read = await body(
        await operator.api('GET', `/api/admin/campaigns/${String(created.id)}`),
        200,
      );
      expect(read).toEqual(created);
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

  describe('changing a campaign', () => {
    it('changes only the fields sent; null clears a budget, the schedule or the image', async () => {
      const created = await create({
        budget_total: 50,
        image_url: 'https://shop.example/i.png',
        ends_at: '2099-01-01T00:00:00Z',
      });
      const updated = await body(
        await patch(created.id, {
          name: 'Renamed',
          budget_total: null,
          image_url: null,
          ends_at: null,
        }),
        200,
      );
      expect(updated).toEqual({
        ...created,
        name: 'Renamed',
        budget_total: null,
        image_url: null,
        ends_at: null,
      });
    });

    it('holds a changed bid against the budgets already set', async () => {
      const created = await create({ bid_per_click: 0.5, budget_daily: 1 });
      const problem = await expectProblem(
        await patch(created.id, { bid_per_click: 2 }),
        400,
        'validation_failed',
      );
      expect(problem.errors).toEqual([
        { field: 'budget_daily', message: 'budget_daily must be at least bid_per_click' },
      ]);
      const starts = await expectProblem(
        await patch(created.id, {
          starts_at: '2030-01-01T00:00:00Z',
          ends_at: '2029-01-01T00:00:00Z',
        }),
        400,
        'validation_failed',
      );
      expect(starts.errors?.[0].field).toBe('ends_at');
    });

    it('refuses null for a field that cannot be empty', async () => {
      const created = await create();
      for (const field of [
        'name',
        'text',
        'target_url',
        'keywords',
        'bid_per_click',
        'countries',
        'status',
      ]) {
        const problem = await expectProblem(
          await patch(created.id, { [field]: null }),
          400,
          'validation_failed',
        );
        expect(problem.errors?.[0].field).toBe(field);
      }
    });

    it('pauses (no longer served at once) and resumes (served again at once)', async () => {
      const created = await create({ keywords: ['kayak'] });
      const { key } = await t.f.publisherWithKey();
      expect((await fetchAd(key, 'kayak')).status).toBe(200);
      expect(await body(await patch(created.id, { status: 'paused' }), 200)).toMatchObject({
        status: 'paused',
      });
      await expectProblem(await fetchAd(key, 'kayak'), 404, 'no_matching_ad');
      expect(await body(await patch(created.id, { status: 'active' }), 200)).toMatchObject({
        status: 'active',
      });
      expect((await fetchAd(key, 'kayak')).status).toBe(200);
    });

    it('serves new keywords and targeting from the response on', async () => {
      const created = await create({ keywords: ['snorkel'] });
      const { key } = await t.f.publisherWithKey();
      await patch(created.id, { keywords: ['diving mask'], countries: ['FR'] });
      await expectProblem(await fetchAd(key, 'snorkel'), 404, 'no_matching_ad');
      const inGermany = await t.fetchAds(key, {
        conversation: 'x',
        context_keywords: 'diving mask',
        user_location: 'Berlin, Germany',
      });
      await expectProblem(inGermany, 404, 'no_matching_ad');
      const inFrance = await t.fetchAds(key, {
        conversation: 'x',
        context_keywords: 'diving mask',
        user_location: 'FR',
      });
      expect(inFrance.status).toBe(200);
    });

    it('archives a campaign for good: it is not served and every later change answers 409', async () => {
      const created = await create({ keywords: ['ice axe'] });
      const { key } = await t.f.publisherWithKey();
      await body(await patch(created.id, { status: 'paused' }), 200);
      expect(await body(await patch(created.id, { status: 'archived' }), 200)).toMatchObject({
        status: 'archived',
      });
      await expectProblem(await fetchAd(key, 'ice axe'), 404, 'no_matching_ad');
      await expectProblem(await patch(created.id, { status: 'active' }), 409, 'campaign_archived');
      await expectProblem(await patch(created.id, { status: 'paused' }), 409, 'campaign_archived');
      await expectProblem(await patch(created.id, { name: 'again' }), 409, 'campaign_archived');
      expect(
        await body(await operator.api('GET', `/api/admin/campaigns/${String(created.id)}`), 200),
      ).toMatchObject({
        status: 'archived',
        name: created.name,
      });
    });

    it('answers 404 campaign_not_found for an unknown campaign', async () => {
      await expectProblem(
        await operator.api('GET', '/api/admin/campaigns/nope'),
        404,
        'campaign_not_found',
      );
      await expectProblem(await patch('nope', { name: 'x' }), 404, 'campaign_not_found');
      await expectProblem(
        await operator.api('GET', '/api/admin/campaigns/nope/audit'),
        404,
        'campaign_not_found',
      );
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

  describe('audit', () => {
    it('records who changed which field when, in the API’s own units', async () => {
      const created = await create({ bid_per_click: 0.35, budget_total: 10 });
      const other = await t.f.operator();
      await patch(created.id, { bid_per_click: 0.4, budget_total: 20, name: created.name });
      await other.api('PATCH', `/api/admin/campaigns/${String(created.id)}`, { status: 'paused' });
      await patch(created.id, {});

      const audit = await body(
        await operator.api('GET', `/api/admin/campaigns/${String(created.id)}/audit`),
        200,
      );
      expect(audit).toMatchObject({ total: 4, page: 1 });
      const [paused, bid, budget, creation] = audit.items as Json[];
      expect(paused).toMatchObject({
        actor_id: other.publisher.id,
        action: 'updated',
        field: 'status',
        old_value: 'active',
        new_value: 'paused',
      });
      expect(bid).toMatchObject({
        actor_id: operator.publisher.id,
        field: 'bid_per_click',
        old_value: 0.35,
        new_value: 0.4,
      });
      expect(budget).toMatchObject({ field: 'budget_total', old_value: 10, new_value: 20 });
      expect(creation).toMatchObject({ action: 'created', field: null, old_value: null });
      expect(creation.new_value).toMatchObject({
        name: created.name,
        bid_per_click: 0.35,
        budget_total: 10,
      });
      expect(new Date(paused.created_at as string).getTime()).toBeGreaterThanOrEqual(
        new Date(bid.created_at as string).getTime(),
      );
    });
  });

  describe('access', () => {
    it('answers 401 without a session and 403 for a publisher who is not an operator', async () => {
      await expectProblem(await t.http('/api/admin/campaigns'), 401, 'unauthorized');
      await expectProblem(await t.http('/api/admin/advertisers'), 401, 'unauthorized');
      const publisher = await t.f.signedInPublisher();
      for (const [method, path] of [
        ['GET', '/api/admin/campaigns'],
        ['POST', '/api/admin/campaigns'],
        ['GET', '/api/admin/advertisers'],
        ['GET', '/api/admin/reports/publishers?from=2026-01-01&to=2026-01-02'],
      ]) {
        await expectProblem(
          await publisher.api(method, path, method === 'POST' ? campaignBody() : undefined),
          403,
          'forbidden',
        );
      }
    });
  });
});
