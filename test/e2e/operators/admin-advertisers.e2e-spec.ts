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
