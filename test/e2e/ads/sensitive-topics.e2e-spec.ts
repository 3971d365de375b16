import { impressionsOf } from '@test/support/ads';
import { expectProblem } from '@test/support/problem';
import { FIXTURE_LANGUAGES, sensitiveFixture } from '@test/support/sensitive-fixtures';
import { startTestApp, TestApp } from '@test/support/test-app';
import { testDatabaseKind } from '@test/support/test-database';

const fixtures = FIXTURE_LANGUAGES.map(sensitiveFixture);
const sensitive = fixtures.flatMap((f) =>
  f.sensitive.map((s) => [f.language, s.topic, s.conversation] as const),
);
const ordinary = fixtures.flatMap((f) =>
  f.ordinary.map((o) => [f.language, o.conversation, o.keywords] as const),
);

/** Every keyword of the ordinary conversations, and "laptop", which the sensitive ones send. */
const CAMPAIGN_KEYWORDS = ['laptop', ...new Set(ordinary.map(([, , keywords]) => keywords))];

describe(`fetch-ads on sensitive topics (${testDatabaseKind()})`, () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_PER_MINUTE: '100000' });
    await t.f.campaign({ keywords: CAMPAIGN_KEYWORDS.join(', ') });
  });
  afterAll(() => t.close());

  async function noFills(reason: string): Promise<number> {
    const text = await (await t.http('/metrics')).text();
    const line = new RegExp(`^adline_ad_no_fill_total\\{reason="${reason}"\\} (\\d+)$`, 'm');
    return Number(line.exec(text)?.[1] ?? 0);
  }

  it('serves an ad for keywords that match, so the refusals below are the topic', async () => {
    const { key, model } = await t.f.publisherWithKey();
    const response = await t.fetchAds(key, {
      conversation: 'Which laptop is best for programming?',
      context_keywords: 'laptop',
    });
    expect(response.status).toBe(200);
    expect(await impressionsOf(t, model.id)).toBe(1);
  });

  describe('a conversation on a sensitive topic gets no ad and records no impression', () => {
    it.each(sensitive)('%s, %s: "%s"', async (_language, topic, conversation) => {
      const { key, model } = await t.f.publisherWithKey();
      const before = await noFills('sensitive_topic');
      const response = await t.fetchAds(key, { conversation, context_keywords: 'laptop' });
      const problem = await expectProblem(response, 404, 'no_matching_ad');
      expect(problem).toMatchObject({
        reason: 'sensitive_topic',
        detail: 'No ad is shown next to a conversation on a sensitive topic.',
      });
      // Never which topic, nor which words.
      expect(JSON.stringify(problem)).not.toContain(topic);
      expect(await impressionsOf(t, model.id)).toBe(0);
      expect(await noFills('sensitive_topic')).toBe(before + 1);
    });
  });

  it('refuses a sensitive topic in context_keywords alone', async () => {
    const { key, model } = await t.f.publisherWithKey();
    for (const keywords of ['laptop, suicide', 'laptop,Bundestagswahl', 'PORNO, laptop']) {
      const response = await t.fetchAds(key, {
        conversation: 'Any advice on this?',
        context_keywords: keywords,
      });
      const problem = await expectProblem(response, 404, 'no_matching_ad');
      expect(problem).toMatchObject({ reason: 'sensitive_topic' });
    }
    expect(await impressionsOf(t, model.id)).toBe(0);
  });

  describe('ordinary shopping talk still gets an ad', () => {
    it.each(ordinary)('%s: "%s" (%s)', async (_language, conversation, keywords) => {
      const { key, model } = await t.f.publisherWithKey();
      const response = await t.fetchAds(key, { conversation, context_keywords: keywords });
      expect(response.status).toBe(200);
      const body = (await response.json()) as { advertisements: unknown[] };
      expect(body.advertisements).toHaveLength(1);
      expect(await impressionsOf(t, model.id)).toBe(1);
    });
  });

  it('answers a plain no-match with the same 404 and reason no_match', async () => {
    const { key } = await t.f.publisherWithKey();
    const before = await noFills('no_matching_ad');
    const response = await t.fetchAds(key, {
      conversation: 'Which zeppelin should I buy?',
      context_keywords: 'zeppelin',
    });
    const problem = await expectProblem(response, 404, 'no_matching_ad');
    expect(problem).toMatchObject({
      reason: 'no_match',
      detail: 'No active campaign matches these keywords; try different keywords.',
    });
    expect(await noFills('no_matching_ad')).toBe(before + 1);
  });
});
