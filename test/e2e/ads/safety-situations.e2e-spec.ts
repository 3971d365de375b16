import { impressionsOf } from '@test/support/ads';
import { expectProblem } from '@test/support/problem';
import { startTestApp, TestApp } from '@test/support/test-app';
import { testDatabaseKind } from '@test/support/test-database';

/**
 * Crises told in plain words, with no phrase of the lists in them, and the publisher's own
 * moderation verdict: no ad, reason `sensitive_topic`, no impression. The keywords match
 * live campaigns, and the same keywords with ordinary talk are served, so every refusal
 * below is the situation's.
 */
const CRISES: [string, string][] = [
  ['My 2 year old daughter just swallowed a button battery. What do I do?', 'battery, laptop'],
  ['my toddler has a high fever and a rash that does not fade', 'travel, hotel'],
  [
    'I think I took too many sleeping pills in my hotel room and I feel very dizzy',
    'travel, hotel',
  ],
];

const ORDINARY: [string, string][] = [
  ['Which laptop has an all-day battery for travelling?', 'battery, laptop'],
  ['Any hotel near the beach in Lisbon for a family of four?', 'travel, hotel'],
  ['I need a pill organizer for my grandma, which one has big compartments?', 'travel, hotel'],
  ['my kid is 13, which laptop should I get her for school?', 'battery, laptop'],
];

describe(`fetch-ads beside a crisis told in plain words (${testDatabaseKind()})`, () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_PER_MINUTE: '100000' });
    await t.f.campaign({ keywords: 'laptop, battery' });
    await t.f.campaign({ keywords: 'travel, hotel' });
  });
  afterAll(() => t.close());

  async function expectNoAd(body: Record<string, unknown>): Promise<void> {
    const { key, model } = await t.f.publisherWithKey();
    const problem = await expectProblem(await t.fetchAds(key, body), 404, 'no_matching_ad');
    expect(problem).toMatchObject({ reason: 'sensitive_topic' });
    expect(await impressionsOf(t, model.id)).toBe(0);
  }

  async function expectAd(body: Record<string, unknown>): Promise<void> {
    const { key, model } = await t.f.publisherWithKey();
    const response = await t.fetchAds(key, body);
    expect(response.status).toBe(200);
    expect(await impressionsOf(t, model.id)).toBe(1);
  }

  it.each(ORDINARY)('serves ordinary talk with the same keywords: "%s"', (conversation, keywords) =>
    expectAd({ conversation, context_keywords: keywords }),
  );

  it.each(CRISES)('serves no ad beside "%s"', (conversation, keywords) =>
    expectNoAd({ conversation, context_keywords: keywords }),
  );

  it.each(CRISES)('reads the user turn of messages: "%s"', (content, keywords) =>
    expectNoAd({
      messages: [
        { role: 'system', content: 'You are a friendly travel and shopping assistant.' },
        { role: 'user', content: 'hi! can you help me with something?' },
        { role: 'assistant', content: 'Of course, what do you need?' },
        { role: 'user', content },
      ],
      context_keywords: keywords,
    }),
  );

  describe("the publisher's own moderation", () => {
    const laptop = {
      conversation: 'Which laptop has an all-day battery for travelling?',
      context_keywords: 'battery, laptop',
    };

    it('serves no ad when the turn is flagged', () =>
      expectNoAd({
        ...laptop,
        moderation: { flagged: true, categories: { 'self-harm': true }, category_scores: {} },
      }));

    it('serves no ad when a category is set though flagged is false', () =>
      expectNoAd({ ...laptop, moderation: { flagged: false, categories: { violence: true } } }));

    it("serves an ad when nothing is flagged, and ignores a result's other fields", () =>
      expectAd({
        ...laptop,
        moderation: {
          flagged: false,
          categories: { 'self-harm': false, violence: false },
          category_scores: { 'self-harm': 0.001, violence: 0.0004 },
          category_applied_input_types: { violence: ['text'] },
        },
      }));

    it.each([
      [{ flagged: 'yes' }],
      [{ categories: { violence: true } }],
      [{ flagged: false, categories: { violence: 'high' } }],
      [{ flagged: false, category_scores: { violence: 'high' } }],
      [[{ flagged: true }]],
    ])('answers 400 for a malformed verdict %j and records nothing', async (moderation) => {
      const { key, model } = await t.f.publisherWithKey();
      const response = await t.fetchAds(key, { ...laptop, moderation });
      const problem = await expectProblem(response, 400, 'validation_failed');
      expect(problem.errors?.some((e) => e.field.startsWith('moderation'))).toBe(true);
      expect(await impressionsOf(t, model.id)).toBe(0);
    });
  });
});
