import { Clock, utcDay } from '@/common/clock';
import { Impression } from '@/tracking/entities/impression.entity';
import type { SignedInPublisher } from '@test/factories';
import { ask } from '@test/support/ads';
import { expectProblem } from '@test/support/problem';
import { startTestApp, TestApp } from '@test/support/test-app';
import { testDatabaseKind } from '@test/support/test-database';

interface Figures {
  impressions: number;
  test_impressions: number;
  viewed_impressions: number;
  view_rate: number;
}

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

describe(`viewed ads: each ad's view_url (${testDatabaseKind()})`, () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  /** Serves `count` ads to the key, one request each; their view URLs. */
  async function serve(key: string, keywords: string, count = 1): Promise<string[]> {
    const urls: string[] = [];
    for (let i = 0; i < count; i++) {
      const response = await t.fetchAds(key, ask(keywords));
      expect(response.status).toBe(200);
      const body = (await response.json()) as { advertisements: { view_url: string }[] };
      urls.push(body.advertisements[0].view_url);
    }
    return urls;
  }

  const view = (url: string, method = 'POST') =>
    fetch(url, { method, headers: { origin: 'https://chat.example' } });

  async function totalsOf(me: SignedInPublisher): Promise<Figures> {
    const now = Date.now();
    const range = `from=${utcDay(new Date(now - DAY_MS))}&to=${utcDay(new Date(now + DAY_MS))}`;
    const response = await me.api('GET', `/api/stats?${range}&model_id=${me.model.id}`);
    expect(response.status).toBe(200);
    return ((await response.json()) as { totals: Figures }).totals;
  }

  it('counts a view once: 204 with an open CORS header, again 204, view_rate = viewed ÷ impressions', async () => {
    await t.f.campaign({ keywords: 'lighthouse' });
    const me = await t.f.signedInPublisher();
    const [url] = await serve(me.key, 'lighthouse', 4);
    expect(url).toMatch(new RegExp(`^${t.baseUrl}/api/ad-views/[0-9a-f-]{36}\\.[\\w-]{22}$`));

    const first = await view(url);
    expect(first.status).toBe(204);
    expect(first.headers.get('access-control-allow-origin')).toBe('*');
    expect(first.headers.get('access-control-allow-credentials')).toBeNull();
    expect(await first.text()).toBe('');
    expect((await view(url)).status).toBe(204);
    expect((await view(url, 'GET')).status).toBe(204);

    expect(await totalsOf(me)).toMatchObject({
      impressions: 4,
      viewed_impressions: 1,
      view_rate: 0.25,
    });
    const viewed = await t.dataSource.getRepository(Impression).findBy({ modelId: me.model.id });
    expect(viewed.filter((i) => i.viewedAt !== null)).toHaveLength(1);
  });

  it('counts nothing for a HEAD of the view_url (a link checker, a prefetch)', async () => {
    await t.f.campaign({ keywords: 'seawall' });
    const me = await t.f.signedInPublisher();
    const [url] = await serve(me.key, 'seawall');

    expect((await view(url, 'HEAD')).status).toBe(204);

    expect(await totalsOf(me)).toMatchObject({ impressions: 1, viewed_impressions: 0 });
    expect((await view(url, 'GET')).status).toBe(204);
    expect(await totalsOf(me)).toMatchObject({ impressions: 1, viewed_impressions: 1 });
  });

  it('counts 10 concurrent calls of one view_url once', async () => {
    await t.f.campaign({ keywords: 'foghorn' });
    const me = await t.f.signedInPublisher();
    const [url] = await serve(me.key, 'foghorn');

    const answers = await Promise.all(Array.from({ length: 10 }, () => view(url)));

    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(204));
    expect(await totalsOf(me)).toMatchObject({
      impressions: 1,
      viewed_impressions: 1,
      view_rate: 1,
    });
  });

  it('answers 404 view_not_found to a forged or altered token, and counts nothing', async () => {
    await t.f.campaign({ keywords: 'breakwater' });
    const me = await t.f.signedInPublisher();
    const [url] = await serve(me.key, 'breakwater');
    const token = url.split('/').pop()!;
    const [id, signature] = token.split('.');
    const flipped = `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`;

    for (const forged of [`${id}.${flipped}`, id, 'not-a-token', `${id}.${'A'.repeat(22)}`]) {
      const answer = await view(`${t.baseUrl}/api/ad-views/${forged}`);
      await expectProblem(answer, 404, 'view_not_found');
      expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    }
    expect(await totalsOf(me)).toMatchObject({ viewed_impressions: 0, view_rate: 0 });
  });

  it('answers 410 view_expired after VIEW_WINDOW_MINUTES, and counts nothing', async () => {
    await t.f.campaign({ keywords: 'tidepool' });
    const me = await t.f.signedInPublisher();
    const [url] = await serve(me.key, 'tidepool');
    const clock = t.app.get(Clock);
    const realNow = clock.now.bind(clock);
    clock.now = () => new Date(realNow().getTime() + 61 * MINUTE_MS);
    try {
      await expectProblem(await view(url), 410, 'view_expired');
    } finally {
      clock.now = realNow;
    }
    expect(await totalsOf(me)).toMatchObject({ impressions: 1, viewed_impressions: 0 });
    // Within the window it still counts.
    clock.now = () => new Date(realNow().getTime() + 59 * MINUTE_MS);
    try {
      expect((await view(url)).status).toBe(204);
    } finally {
      clock.now = realNow;
    }
    expect(await totalsOf(me)).toMatchObject({ viewed_impressions: 1, view_rate: 1 });
  });

  it("records a test key's view apart: never in the live figures", async () => {
    await t.f.campaign({ keywords: 'sandbar' });
    const me = await t.f.signedInPublisher();
    const testKey = await t.f.apiKey(me.model.id, 'test');
    const [url] = await serve(testKey, 'sandbar');

    expect((await view(url)).status).toBe(204);

    expect(await totalsOf(me)).toMatchObject({
      impressions: 0,
      test_impressions: 1,
      viewed_impressions: 0,
      view_rate: 0,
    });
    const [row] = await t.dataSource.query<
      { viewed: string | number; test_viewed: string | number }[]
    >(
      `SELECT SUM(viewed_impressions) AS viewed, SUM(test_viewed_impressions) AS test_viewed
         FROM daily_stats WHERE model_id = ?`,
      [me.model.id],
    );
    expect([Number(row.viewed), Number(row.test_viewed)]).toEqual([0, 1]);
  });
});
