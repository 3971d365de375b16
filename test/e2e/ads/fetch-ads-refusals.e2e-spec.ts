import { impressionsOf, laptopChat } from '@test/support/ads';
import { expectProblem } from '@test/support/problem';
import { startTestApp, TestApp } from '@test/support/test-app';
import { testDatabaseKind } from '@test/support/test-database';

describe(`POST /api/fetch-ads (${testDatabaseKind()})`, () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  describe('bad input (400) changes nothing', () => {
    const cases: [string, unknown, string][] = [
      ['conversation is missing', { context_keywords: 'laptop' }, 'conversation'],
      ['context_keywords is missing', { conversation: 'hello' }, 'context_keywords'],
      [
        'conversation is not a string',
        { conversation: 42, context_keywords: 'laptop' },
        'conversation',
      ],
      [
        'context_keywords is empty',
        { conversation: 'hi', context_keywords: ' , ' },
        'context_keywords',
      ],
      [
        'user_location is not a string',
        { conversation: 'hi', context_keywords: 'laptop', user_location: 7 },
        'user_location',
      ],
    ];
    it.each(cases)('answers 400 with field errors when %s', async (_name, body, field) => {
      const { key, model } = await t.f.publisherWithKey();
      await t.f.campaign({ keywords: 'laptop' });
      const problem = await expectProblem(await t.fetchAds(key, body), 400, 'validation_failed');
      expect(problem.errors?.map((e) => e.field)).toContain(field);
      expect(await impressionsOf(t, model.id)).toBe(0);
    });

    it('says which required field is missing', async () => {
      const { key } = await t.f.publisherWithKey();
      const problem = await expectProblem(await t.fetchAds(key, {}), 400, 'validation_failed');
      expect(problem.errors).toEqual([
        { field: 'conversation', message: 'conversation is required' },
        { field: 'context_keywords', message: 'context_keywords is required' },
      ]);
    });

    it('answers 400 when the body is not a JSON object', async () => {
      const { key } = await t.f.publisherWithKey();
      await expectProblem(await t.fetchAds(key, '["conversation"]'), 400, 'validation_failed');
      await expectProblem(await t.fetchAds(key, '"just text"'), 400, 'validation_failed');
    });

    it('answers 400 malformed_json for a body that is not JSON', async () => {
      const { key } = await t.f.publisherWithKey();
      await expectProblem(await t.fetchAds(key, '{"conversation": '), 400, 'malformed_json');
    });

    it('answers 415 for a body that is not sent as JSON', async () => {
      const { key } = await t.f.publisherWithKey();
      const response = await t.http('/api/fetch-ads', {
        method: 'POST',
        headers: { 'content-type': 'text/plain', 'service-api-key': key },
        body: 'conversation=hi',
      });
      await expectProblem(response, 415, 'unsupported_media_type');
      const form = await t.http('/api/fetch-ads', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'service-api-key': key },
        body: 'conversation=hi&context_keywords=laptop',
      });
      await expectProblem(form, 415, 'unsupported_media_type');
    });

    it('answers 413 for a body over the configured size', async () => {
      const { key } = await t.f.publisherWithKey();
      const huge = {
        conversation: 'a'.repeat(t.config.bodyLimitBytes),
        context_keywords: 'laptop',
      };
      await expectProblem(await t.fetchAds(key, huge), 413, 'payload_too_large');
    });
  });

  describe('authentication failures answer 404', () => {
    it('answers 404 missing_api_key without the header', async () => {
      await t.f.campaign({ keywords: 'laptop' });
      await expectProblem(await t.fetchAds(null, laptopChat('laptop')), 404, 'missing_api_key');
    });

    it('answers 404 invalid_api_key for an unknown key', async () => {
      await expectProblem(
        await t.fetchAds('adl_live_' + 'A'.repeat(43), laptopChat('laptop')),
        404,
        'invalid_api_key',
      );
      await expectProblem(
        await t.fetchAds('not-a-key', laptopChat('laptop')),
        404,
        'invalid_api_key',
      );
    });

    it('answers 404 invalid_api_key for a revoked key, at once, while another key of the model still serves', async () => {
      const { key, keyId, model } = await t.f.publisherWithKey();
      await t.f.campaign({ keywords: 'laptop' });
      const second = await t.f.apiKey(model.id);
      expect((await t.fetchAds(key, laptopChat('laptop'))).status).toBe(200);
      await t.f.revokeKey(keyId);
      await expectProblem(await t.fetchAds(key, laptopChat('laptop')), 404, 'invalid_api_key');
      expect((await t.fetchAds(second, laptopChat('laptop'))).status).toBe(200);
    });

    it('answers 404 model_inactive for a deactivated model, and serves again once reactivated', async () => {
      const { key, model } = await t.f.publisherWithKey();
      await t.f.campaign({ keywords: 'laptop' });
      expect((await t.fetchAds(key, laptopChat('laptop'))).status).toBe(200);
      await t.f.setModelStatus(model.id, 'deactivated');
      await expectProblem(await t.fetchAds(key, laptopChat('laptop')), 404, 'model_inactive');
      await t.f.setModelStatus(model.id, 'active');
      expect((await t.fetchAds(key, laptopChat('laptop'))).status).toBe(200);
    });

    it('answers 404 no_matching_ad and records nothing when no campaign matches', async () => {
      const { key, model } = await t.f.publisherWithKey();
      await expectProblem(await t.fetchAds(key, laptopChat('zeppelin')), 404, 'no_matching_ad');
      expect(await impressionsOf(t, model.id)).toBe(0);
    });
  });
});

describe(`fetch-ads rate limit (${testDatabaseKind()})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_PER_MINUTE: '3' });
  });
  afterAll(() => t.close());

  it('answers 429 with Retry-After once a key exceeds its limit, without affecting other keys', async () => {
    const first = await t.f.publisherWithKey();
    const other = await t.f.publisherWithKey();
    await t.f.campaign({ keywords: 'laptop' });
    for (let i = 0; i < 3; i++)
      expect((await t.fetchAds(first.key, laptopChat('laptop'))).status).toBe(200);
    const limited = await t.fetchAds(first.key, laptopChat('laptop'));
    await expectProblem(limited, 429, 'rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await t.fetchAds(other.key, laptopChat('laptop'))).status).toBe(200);
  });
});

describe(`fetch-ads internal errors (${testDatabaseKind()})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('answers 500 without internals, with the request id, when the impression cannot be stored', async () => {
    const { key } = await t.f.publisherWithKey();
    await t.f.campaign({ keywords: 'laptop' });
    expect((await t.fetchAds(key, laptopChat('laptop'))).status).toBe(200);
    await t.dataSource.query('DROP TABLE impressions');

    const response = await t.fetchAds(key, laptopChat('laptop'));
    const text = await response.clone().text();
    await expectProblem(response, 500, 'internal');
    expect(response.headers.get('x-request-id')).toBeTruthy();
    expect(text).not.toMatch(/impressions|INSERT|SQL|stack|at /i);
  });
});
