import { In } from 'typeorm';
import { Campaign } from '@/campaigns/entities/campaign.entity';
import { type DemoData, DemoSeeder } from '@/demo/demo-seeder.service';
import { expectProblem } from '@test/support/problem';
import { startTestApp, TestApp } from '@test/support/test-app';
import { testDatabaseKind } from '@test/support/test-database';

interface Ads {
  advertisements: { campaign_name: string }[];
}

/** The request `npm start` prints: a GPU question. */
const PRINTED_REQUEST = {
  conversation: 'Which GPU should I rent to train my model?',
  context_keywords: 'gpu, machine learning',
};

/*
 * The demo data a first `npm start` seeds follows the README's advice and shows what the
 * tour names: specific keywords, several advertisers (so `max_ads: 3` gives three ads),
 * targeting and categories a publisher can block.
 */
describe(`the demo data (${testDatabaseKind()})`, () => {
  let t: TestApp;
  let demo: DemoData;

  beforeAll(async () => {
    t = await startTestApp();
    demo = (await t.app.get(DemoSeeder).seedIfEmpty())!;
  });
  afterAll(() => t.close());

  const ask = (conversation: string, keywords: string, extra: object = {}) =>
    t.fetchAds(demo.testApiKey, { conversation, context_keywords: keywords, ...extra });

  const namesOf = async (response: Response): Promise<string[]> => {
    expect(response.status).toBe(200);
    return ((await response.json()) as Ads).advertisements.map((ad) => ad.campaign_name);
  };

  const refusedFor = async (response: Response): Promise<unknown> =>
    ((await expectProblem(response, 404, 'no_matching_ad')) as { reason?: string }).reason;

  it('serves the GPU cloud to the request it prints, with both demo keys', async () => {
    expect(await namesOf(await t.fetchAds(demo.apiKey, PRINTED_REQUEST))).toEqual([
      'GPU Cloud for ML',
    ]);
    expect(await namesOf(await t.fetchAds(demo.testApiKey, PRINTED_REQUEST))).toEqual([
      'GPU Cloud for ML',
    ]);
    expect(await refusedFor(await ask('Tell me about zebras', 'zebra'))).toBe('no_match');
  });

  it('does not serve its Python course to a ball python, and does to a course seeker', async () => {
    const snake = 'my ball python has not eaten';
    // As an extractor that keeps phrases sends it, and as the examples' word splitter does.
    for (const keywords of ['ball python', 'ball, python, eaten']) {
      expect(await refusedFor(await ask(snake, keywords))).toBe('no_match');
    }
    const course = 'best python course for beginners';
    for (const keywords of ['python course, beginners', 'best, python, course, beginners']) {
      expect(await namesOf(await ask(course, keywords))).toEqual(['Learn Python Online']);
    }
  });

  it('answers max_ads: 3 with three ads of three advertisers, the GPU cloud first', async () => {
    const names = await namesOf(
      await t.fetchAds(demo.testApiKey, { ...PRINTED_REQUEST, max_ads: 3 }),
    );
    expect(names).toHaveLength(3);
    expect(names[0]).toBe('GPU Cloud for ML');
    const campaigns = await t.dataSource.getRepository(Campaign).findBy({ name: In(names) });
    expect(campaigns).toHaveLength(3);
    expect(new Set(campaigns.map((c) => c.advertiserId)).size).toBe(3);
  });

  it('targets travel at five countries and the budget app at phones and tablets', async () => {
    const trip = 'Any ideas for a city break next month?';
    expect(await refusedFor(await ask(trip, 'city break'))).toBe('no_targeted_match');
    expect(
      await namesOf(await ask(trip, 'city break', { user_location: 'Berlin, Germany' })),
    ).toEqual(['Travel Deals Europe']);
    const money = 'Which app should I use to track my spending?';
    expect(await refusedFor(await ask(money, 'expense tracker'))).toBe('no_targeted_match');
    expect(
      await namesOf(await ask(money, 'expense tracker', { user_device_info: 'mobile' })),
    ).toEqual(['Mobile Budget App']);
  });

  it('puts its campaigns in categories the demo publisher can block', async () => {
    const login = await t.http('/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: demo.publisherEmail, password: demo.publisherPassword }),
    });
    const { access_token: token } = (await login.json()) as { access_token: string };
    const controls = await t.http(`/api/models/${demo.modelId}/controls`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ blocked_categories: ['132'] }),
    });
    expect(controls.status).toBe(200);
    // Education blocked: the Python course is refused; the GPU cloud (technology) is not.
    const course = await ask('best python course for beginners', 'python course, beginners');
    expect(await refusedFor(course)).toBe('blocked');
    expect(await namesOf(await ask(PRINTED_REQUEST.conversation, 'gpu'))).toEqual([
      'GPU Cloud for ML',
    ]);
  });
});
