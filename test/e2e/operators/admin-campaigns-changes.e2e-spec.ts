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

  const { create, patch, fetchAd } = campaignCalls(() => ({ t, operator, advertiserId }));

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
});
