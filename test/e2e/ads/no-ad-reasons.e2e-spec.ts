import { utcDay } from '@/common/clock';
import { FillStatsRecorder } from '@/earnings/fill-stats-recorder.service';
import { ask } from '@test/support/ads';
import { expectProblem } from '@test/support/problem';
import { startTestApp, TestApp } from '@test/support/test-app';
import { testDatabaseKind } from '@test/support/test-database';

/*
 * What a fetch-ads answer without an ad tells the publisher must be true: a match that
 * targeting took away is not "try different keywords", and a model its publisher
 * deactivated is not "contact support".
 */
describe(`no-ad answers say why (${testDatabaseKind()})`, () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  describe('keywords that match only campaigns targeted elsewhere', () => {
    beforeAll(async () => {
      await t.f.campaign({ keywords: 'kayak rental', countries: ['NO'] });
      await t.f.campaign({ keywords: 'kayak rental', devices: ['mobile'] });
    });

    it('answer 404 no_matching_ad with reason no_targeted_match, not no_match', async () => {
      const { key } = await t.f.publisherWithKey();
      for (const extra of [{}, { user_location: 'Lyon, France', user_device_info: 'desktop' }]) {
        const problem = await expectProblem(
          await t.fetchAds(key, { ...ask('kayak rental'), ...extra }),
          404,
          'no_matching_ad',
        );
        expect(problem).toMatchObject({ reason: 'no_targeted_match' });
        expect(problem.detail).not.toContain('try different keywords');
        expect(problem.detail).toContain('location or device');
      }
      // The same keywords from Norway, or from a phone, get an ad.
      const norway = { ...ask('kayak rental'), user_location: 'Oslo, Norway' };
      expect((await t.fetchAds(key, norway)).status).toBe(200);
      const phone = { ...ask('kayak rental'), user_device_info: 'mobile' };
      expect((await t.fetchAds(key, phone)).status).toBe(200);
      // Keywords no campaign holds are still no_match.
      const none = await expectProblem(
        await t.fetchAds(key, ask('harpsichord tuning')),
        404,
        'no_matching_ad',
      );
      expect(none).toMatchObject({ reason: 'no_match' });
    });

    it('count under no_targeted_match in the stats, apart from no_match', async () => {
      const me = await t.f.signedInPublisher();
      const refused = async (keywords: string, reason: string) =>
        expect(
          await expectProblem(await t.fetchAds(me.key, ask(keywords)), 404, 'no_matching_ad'),
        ).toMatchObject({ reason });
      await refused('kayak rental', 'no_targeted_match');
      await refused('kayak rental', 'no_targeted_match');
      await refused('harpsichord tuning', 'no_match');
      await t.app.get(FillStatsRecorder).flush();

      const today = utcDay(new Date());
      const stats = await me.api('GET', `/api/stats?from=${today}&to=${today}`);
      expect(stats.status).toBe(200);
      const body = (await stats.json()) as { totals: { requests: number; no_fills: object } };
      expect(body.totals).toMatchObject({
        requests: 3,
        no_fills: { no_match: 1, no_targeted_match: 2 },
      });
    });
  });

  describe('a model deactivated', () => {
    it('by its publisher tells the publisher to reactivate it in the dashboard', async () => {
      const me = await t.f.signedInPublisher();
      await t.f.campaign({ keywords: 'canoe paddle' });
      const off = await me.api('PATCH', `/api/models/${me.model.id}`, { status: 'deactivated' });
      expect(off.status).toBe(200);
      const problem = await expectProblem(
        await t.fetchAds(me.key, ask('canoe paddle')),
        404,
        'model_inactive',
      );
      expect(problem.detail).toBe(
        'The AI model of this key was deactivated by its publisher; reactivate it in the dashboard to serve ads again.',
      );
      expect(problem.detail).not.toContain('contact support');
    });

    it('by an operator still says to contact support', async () => {
      const admin = await t.f.signedInAdmin();
      const owner = await t.f.signedInPublisher();
      await t.f.campaign({ keywords: 'canoe paddle' });
      const off = await admin.api('PATCH', `/api/admin/models/${owner.model.id}`, {
        status: 'deactivated',
      });
      expect(off.status).toBe(200);
      const problem = await expectProblem(
        await t.fetchAds(owner.key, ask('canoe paddle')),
        404,
        'model_inactive',
      );
      expect(problem.detail).toContain('contact support');
    });
  });
});
