import { ApiKeyResolver } from '@/publishers/api-key-resolver.service';
import type { SignedInPublisher } from '@test/factories';
import { body, type Json } from '@test/support/operator-api';
import { expectProblem } from '@test/support/problem';
import { startTestApp, TestApp } from '@test/support/test-app';
import { testDatabaseKind } from '@test/support/test-database';

const NO_CONTROLS = {
  blocked_categories: [],
  blocked_advertisers: [],
  blocked_keywords: [],
  relevance_floor: 0,
  frequency_cap: null,
};

const SOME_CONTROLS = {
  blocked_categories: ['386', 'v9i3On', '386'],
  blocked_advertisers: [' 019a8a3e-0000-7cc1-9d0e-3f2a1b4c5d6e ', 'acme'],
  blocked_keywords: ['  Payday   LOANS', 'payday loans', 'ＣＡＳＩＮＯ'],
  relevance_floor: 0.35,
  frequency_cap: { max_ads: 3, per_minutes: 60 },
};

describe(`a publisher's controls per AI model (${testDatabaseKind()})`, () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const controlsPath = (me: SignedInPublisher) => `/api/models/${me.model.id}/controls`;
  const put = (me: SignedInPublisher, controls: unknown) =>
    me.api('PUT', controlsPath(me), controls);

  it('starts with none: nothing blocked, no floor, no cap, in the model, the list and a new model', async () => {
    const me = await t.f.signedInPublisher();
    expect((await body(await me.api('GET', `/api/models/${me.model.id}`), 200)).controls).toEqual(
      NO_CONTROLS,
    );
    const list = (await (await me.api('GET', '/api/models')).json()) as Json[];
    expect(list.map((model) => model.controls)).toEqual([NO_CONTROLS]);
    const created = await body(await me.api('POST', '/api/models', { name: 'Second' }), 201);
    expect(created.controls).toEqual(NO_CONTROLS);
  });

  it('sets them (duplicates removed, keywords normalised, ids trimmed) and reads them back', async () => {
    const me = await t.f.signedInPublisher();
    const expected = {
      blocked_categories: ['386', 'v9i3On'],
      blocked_advertisers: ['019a8a3e-0000-7cc1-9d0e-3f2a1b4c5d6e', 'acme'],
      blocked_keywords: ['payday loans', 'casino'],
      relevance_floor: 0.35,
      frequency_cap: { max_ads: 3, per_minutes: 60 },
    };
    const saved = await body(await put(me, SOME_CONTROLS), 200);
    expect(saved).toMatchObject({ id: me.model.id, name: me.model.name, controls: expected });
    expect((await body(await me.api('GET', `/api/models/${me.model.id}`), 200)).controls).toEqual(
      expected,
    );
    const list = (await (await me.api('GET', '/api/models')).json()) as Json[];
    expect(list[0].controls).toEqual(expected);
  });

  it('replaces them as a whole: a field left out goes back to its default', async () => {
    const me = await t.f.signedInPublisher();
    expect((await put(me, SOME_CONTROLS)).status).toBe(200);
    const saved = await body(await put(me, { blocked_keywords: ['casino'] }), 200);
    expect(saved.controls).toEqual({ ...NO_CONTROLS, blocked_keywords: ['casino'] });
    expect((await body(await put(me, {}), 200)).controls).toEqual(NO_CONTROLS);
  });

  it('keeps the longest lists it takes: 200 keywords of 100 characters, 100 advertisers', async () => {
    const me = await t.f.signedInPublisher();
    // Three bytes of UTF-8 per character: the most a blocked keyword can take in its column.
    const keywords = Array.from({ length: 200 }, (_, i) => `${'語'.repeat(96)}${1000 + i}`);
    const advertisers = Array.from({ length: 100 }, (_, i) => `advertiser-${i}`.padEnd(36, '-'));
    const controls = { blocked_keywords: keywords, blocked_advertisers: advertisers };
    expect((await put(me, controls)).status).toBe(200);
    const read = await body(await me.api('GET', `/api/models/${me.model.id}`), 200);
    expect(read.controls).toEqual({ ...NO_CONTROLS, ...controls });
  });

  it.each([
    ['an unknown category', { blocked_categories: ['IAB25'] }, 'blocked_categories'],
    ['a category list that is not a list', { blocked_categories: '386' }, 'blocked_categories'],
    ['null for a list', { blocked_keywords: null }, 'blocked_keywords'],
    ['101 advertisers', { blocked_advertisers: range(101) }, 'blocked_advertisers'],
    [
      'an advertiser id of 37 characters',
      { blocked_advertisers: ['a'.repeat(37)] },
      'blocked_advertisers',
    ],
    ['an empty advertiser id', { blocked_advertisers: ['  '] }, 'blocked_advertisers'],
    ['201 keywords', { blocked_keywords: range(201) }, 'blocked_keywords'],
    ['a keyword of 101 characters', { blocked_keywords: ['k'.repeat(101)] }, 'blocked_keywords'],
    ['a keyword that is only spaces', { blocked_keywords: ['   '] }, 'blocked_keywords'],
    [
      'a keyword with a control character',
      { blocked_keywords: ['pay\u0000day'] },
      'blocked_keywords',
    ],
    ['a floor above 1', { relevance_floor: 1.5 }, 'relevance_floor'],
    ['a negative floor', { relevance_floor: -0.1 }, 'relevance_floor'],
    ['a floor as text', { relevance_floor: '0.5' }, 'relevance_floor'],
    ['a floor with 7 decimals', { relevance_floor: 0.1234567 }, 'relevance_floor'],
    ['a cap of 0 ads', { frequency_cap: { max_ads: 0, per_minutes: 60 } }, 'frequency_cap.max_ads'],
    [
      'a cap of 101 ads',
      { frequency_cap: { max_ads: 101, per_minutes: 60 } },
      'frequency_cap.max_ads',
    ],
    [
      'a cap of 1.5 ads',
      { frequency_cap: { max_ads: 1.5, per_minutes: 60 } },
      'frequency_cap.max_ads',
    ],
    [
      'a cap over a day',
      { frequency_cap: { max_ads: 1, per_minutes: 1441 } },
      'frequency_cap.per_minutes',
    ],
    ['a cap without minutes', { frequency_cap: { max_ads: 1 } }, 'frequency_cap.per_minutes'],
    ['a cap that is a number', { frequency_cap: 3 }, 'frequency_cap'],
  ])(
    'refuses %s with 400 validation_failed naming the field, and keeps what it had',
    async (_what, controls, field) => {
      const me = await t.f.signedInPublisher();
      expect((await put(me, SOME_CONTROLS)).status).toBe(200);
      const before = (await body(await me.api('GET', `/api/models/${me.model.id}`))).controls;
      const problem = await expectProblem(await put(me, controls), 400, 'validation_failed');
      expect(problem.errors?.map((error) => error.field)).toEqual([field]);
      const after = (await body(await me.api('GET', `/api/models/${me.model.id}`))).controls;
      expect(after).toEqual(before);
    },
  );

  it("answers 404 model_not_found for another publisher's model, and changes nothing", async () => {
    const me = await t.f.signedInPublisher();
    const other = await t.f.signedInPublisher();
    await expectProblem(
      await me.api('PUT', controlsPath(other), SOME_CONTROLS),
      404,
      'model_not_found',
    );
    await expectProblem(
      await me.api('PUT', '/api/models/no-such-model/controls', SOME_CONTROLS),
      404,
      'model_not_found',
    );
    const theirs = await body(await other.api('GET', `/api/models/${other.model.id}`), 200);
    expect(theirs.controls).toEqual(NO_CONTROLS);
  });

  it('answers 401 without a session', async () => {
    const me = await t.f.signedInPublisher();
    await expectProblem(
      await t.http(controlsPath(me), {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(SOME_CONTROLS),
      }),
      401,
      'unauthorized',
    );
  });

  it("reaches the model's cached key credentials at once, so fetch-ads reads them without the database", async () => {
    const me = await t.f.signedInPublisher();
    const secondKey = await t.f.apiKey(me.model.id, 'test');
    const resolver = t.app.get(ApiKeyResolver);
    // A fetch-ads call caches the key's credential (for API_KEY_CACHE_SECONDS, 30 s here).
    expect((await t.fetchAds(me.key, { conversation: 'hi', context_keywords: 'x' })).status).toBe(
      404,
    );
    const cached = await resolver.resolve(me.key);
    expect(cached?.controls.any).toBe(false);
    await resolver.resolve(secondKey);

    expect((await put(me, SOME_CONTROLS)).status).toBe(200);

    for (const key of [me.key, secondKey]) {
      const credential = await resolver.resolve(key);
      expect(credential?.controls).toEqual({
        any: true,
        blockedCategories: new Set(['386', 'v9i3On']),
        blockedAdvertisers: new Set(['019a8a3e-0000-7cc1-9d0e-3f2a1b4c5d6e', 'acme']),
        blockedKeywords: new Set(['payday loans', 'casino']),
        relevanceFloor: 0.35,
        frequencyCap: { maxAds: 3, perMinutes: 60 },
      });
    }
    expect((await put(me, {})).status).toBe(200);
    expect((await resolver.resolve(me.key))?.controls.any).toBe(false);
  });
});

function range(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `value-${i}`);
}
