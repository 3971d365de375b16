import fc from 'fast-check';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { SignedIn, SignedInPublisher } from '@test/factories';
import {
  answerChecker,
  CONTENT_TYPES,
  field,
  headerValue,
  managementBody,
  MANAGEMENT_QUERY_KEYS,
  MANAGEMENT_ROUTES,
  queryString,
  rawBody,
  segment,
  text,
} from '@test/support/fuzz';
import { startTestApp, TestApp } from '@test/support/test-app';
import { testDatabaseKind } from '@test/support/test-database';

/**
 * Property-based fuzzing of every public entry point (fetch-ads, the click endpoint and the
 * management API): thousands of generated bodies, query strings, path segments and headers.
 * Whatever arrives, the answer is a success or a 4xx problem+json with a `code`; never a
 * 5xx. A fixed seed and bounded run counts keep it repeatable and well under a minute.
 */

const SEED = 20_261_122;
/** Live heap the second pass may add: a leak of 32 KB per request would exceed it. */
const MAX_HEAP_GROWTH = 32e6;

// A full collection before each heap reading, so that the memory check compares live
// objects only; the flag is set at run time because `npm test` starts Node without it.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

describe(`fuzzing every entry point (${testDatabaseKind()})`, () => {
  let t: TestApp;
  let publisher: SignedInPublisher;
  let admin: SignedIn;
  let adsKey: string;
  let clickQuery: string;
  let advertiserId: string;
  let ids: Record<'model' | 'key' | 'publisher' | 'advertiser' | 'campaign', string>;
  const { tally, send } = answerChecker(() => t);

  const jsonRequest = (method: string, token: string | null, body: string): RequestInit => ({
    method,
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body,
  });

  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMITS_ENABLED: 'false' });
    // The fuzzed management calls may revoke keys, deactivate models and archive campaigns,
    // so fetch-ads and the click link use an account and a campaign of their own.
    ({ key: adsKey } = await t.f.publisherWithKey());
    await t.f.campaign({ keywords: 'laptop, gpu' });
    const ad = (await (
      await t.fetchAds(adsKey, { conversation: 'a laptop?', context_keywords: 'laptop' })
    ).json()) as { advertisements: { campaign_link: string }[] };
    clickQuery = new URL(ad.advertisements[0].campaign_link).search.slice(1);

    publisher = await t.f.signedInPublisher();
    admin = await t.f.signedInAdmin();
    const fuzzed = await t.f.campaign({ keywords: 'fuzz' });
    advertiserId = fuzzed.advertiserId;
    const keys = (await (
      await publisher.api('GET', `/api/models/${publisher.model.id}/keys`)
    ).json()) as { id: string }[];
    ids = {
      model: publisher.model.id,
      key: keys[0].id,
      publisher: (await t.f.publisherWithKey()).publisher.id,
      advertiser: advertiserId,
      campaign: fuzzed.id,
    };
  });
  afterAll(async () => {
    // For the run's record: how many requests were fuzzed, how many 5xx (none) were seen.
    console.log(
      `fuzz (${testDatabaseKind()}): ${tally.requests} requests, ${tally.serverErrors} 5xx;`,
      `answers by status: ${JSON.stringify(tally.statuses)}`,
    );
    await t.close();
  });

  const run = <T extends [unknown, ...unknown[]]>(
    property: fc.IAsyncPropertyWithHooks<T>,
    numRuns: number,
  ): Promise<void> => fc.assert(property, { seed: SEED, numRuns, endOnFailure: true });

  /** fetch-ads: a plausible request with any field, header or whole body replaced. */
  const fetchAdsProperty = () => {
    const plausible = fc.record(
      {
        conversation: field(fc.constantFrom('Which laptop should I buy?', 'gpu rental')),
        context_keywords: field(fc.constantFrom('laptop', 'gpu, laptop', 'zebra')),
        user_location: field(fc.constantFrom('Berlin, Germany', 'DE', 'Atlantis')),
        user_device_info: field(fc.constantFrom('mobile', 'Mozilla/5.0', 'toaster')),
      },
      { requiredKeys: [] },
    );
    const request = fc.record({
      body: rawBody(plausible),
      key: fc.oneof({ weight: 4, arbitrary: fc.constant(adsKey) }, headerValue),
      contentType: fc.oneof(
        { weight: 4, arbitrary: fc.constant('application/json') },
        fc.constantFrom(...CONTENT_TYPES),
      ),
      requestId: headerValue,
    });
    return fc.asyncProperty(request, async ({ key, contentType, requestId, body }) => {
      await send('fetch-ads', '/api/fetch-ads', {
        method: 'POST',
        headers: {
          ...(key ? { 'service-api-key': key } : {}),
          ...(contentType ? { 'content-type': contentType } : {}),
          ...(requestId ? { 'x-request-id': requestId } : {}),
        },
        body,
      });
    });
  };

  /** A management route with any id in its path, query string, body and credentials. */
  const managementProperty = () => {
    const request = fc.record({
      route: fc.constantFrom(...MANAGEMENT_ROUTES),
      ids: fc.record({
        model: segment([ids.model]),
        key: segment([ids.key]),
        publisher: segment([ids.publisher]),
        advertiser: segment([ids.advertiser]),
        campaign: segment([ids.campaign]),
      }),
      query: queryString(MANAGEMENT_QUERY_KEYS),
      body: rawBody(managementBody),
      contentType: fc.oneof(
        { weight: 6, arbitrary: fc.constant('application/json') },
        fc.constantFrom(...CONTENT_TYPES),
      ),
      // Most calls are signed in (so that validation runs); some carry a broken credential.
      auth: fc.oneof(
        { weight: 8, arbitrary: fc.constant('session') },
        headerValue.map((value) => `Bearer ${value}`),
        fc.constantFrom('', 'Basic abc', 'Bearer'),
      ),
    });
    return fc.asyncProperty(
      request,
      async ({ route, ids: segments, query, body, contentType, auth }) => {
        const [method, template] = route;
        const path = template.replace(
          /\{(\w+)\}/g,
          (_m, name: keyof typeof segments) => segments[name],
        );
        const account = template.startsWith('/api/admin') ? admin : publisher;
        const authorization = auth === 'session' ? `Bearer ${account.token}` : auth;
        const hasBody = method === 'POST' || method === 'PATCH';
        await send('management', `${path}${query ? `?${query}` : ''}`, {
          method,
          headers: {
            ...(authorization ? { authorization } : {}),
            ...(hasBody && contentType ? { 'content-type': contentType } : {}),
          },
          body: hasBody ? body : undefined,
        });
      },
    );
  };

  it('POST /api/fetch-ads: any body and headers', async () => {
    await run(fetchAdsProperty(), 700);
  }, 120_000);

  it('GET /api/campaign_click: any query string and user agent, around a real signed link', async () => {
    const request = fc.record({
      query: fc.oneof(
        fc.constant(clickQuery),
        queryString(['campaign_id', 'model_id', 'targetLink', 'imp', 'sig']).map(
          (extra) => `${clickQuery}&${extra}`,
        ),
        queryString(['campaign_id', 'model_id', 'targetLink', 'imp', 'sig']),
      ),
      userAgent: headerValue,
    });
    await run(
      fc.asyncProperty(request, async ({ query, userAgent }) => {
        await send('click', `/api/campaign_click?${query}`, {
          headers: userAgent ? { 'user-agent': userAgent } : {},
        });
      }),
      400,
    );
  }, 120_000);

  it('every management route: any path id, query string, body and credentials', async () => {
    await run(managementProperty(), 1_200);
  }, 180_000);

  it('register and sign-in: any body', async () => {
    const email = fc.oneof(
      fc.constantFrom('ada@example.test', 'ÄDA@例え.test', 'a@b', 'a"b@example.test'),
      text,
    );
    const credentials = fc.record(
      {
        email: field(email),
        password: field(fc.constantFrom('a long passphrase 42')),
        name: field(text),
      },
      { requiredKeys: [] },
    );
    await run(
      fc.asyncProperty(
        fc.constantFrom('register', 'login'),
        rawBody(credentials),
        async (route, body) => {
          await send(route, `/api/auth/${route}`, jsonRequest('POST', null, body));
        },
      ),
      80,
    );
  }, 120_000);

  describe('text that is accepted is stored and read back exactly', () => {
    // IsText trims surrounding whitespace: that is the one change the API makes to text.
    const stored = (sent: unknown): unknown => (typeof sent === 'string' ? sent.trim() : sent);

    it.each([
      {
        label: 'an AI model',
        create: '/api/models',
        read: (id: string) => `/api/models/${id}`,
        body: (name: unknown, other: unknown) => ({ name, description: other }),
        fields: ['name', 'description'],
        as: () => publisher,
        minAccepted: 20,
      },
      {
        label: 'an advertiser',
        create: '/api/admin/advertisers',
        read: (id: string) => `/api/admin/advertisers/${id}`,
        body: (name: unknown) => ({ name }),
        fields: ['name'],
        as: () => admin,
        minAccepted: 20,
      },
      {
        label: 'a campaign',
        create: '/api/admin/campaigns',
        read: (id: string) => `/api/admin/campaigns/${id}`,
        body: (name: unknown, other: unknown) => ({
          advertiser_id: advertiserId,
          name,
          text: other,
          target_url: 'https://advertiser.example/landing',
          keywords: ['fuzz'],
          bid_per_click: 0.1,
        }),
        fields: ['name', 'text'],
        as: () => admin,
        // Ad copy also refuses HTML and invisible characters
        // (src/campaigns/campaigns/ad-copy-rules.ts), which the tricky text is full of, in either
        // of two fields.
        minAccepted: 10,
      },
    ])(
      '$label',
      async ({ create, read, body, fields, as, minAccepted }) => {
        let accepted = 0;
        await run(
          fc.asyncProperty(field(text), field(text), async (name, other) => {
            const sent = body(name, other) as Record<string, unknown>;
            const { token } = as();
            const created = (await send(
              'create',
              create,
              jsonRequest('POST', token, JSON.stringify(sent)),
            )) as {
              id?: string;
            } | null;
            if (!created?.id) return;
            accepted += 1;
            const back = (await send('read back', read(created.id), {
              headers: { authorization: `Bearer ${token}` },
            })) as Record<string, unknown>;
            for (const name of fields) expect(back[name]).toEqual(stored(sent[name]));
          }),
          120,
        );
        // The property means something only if a fair share of the text was accepted.
        expect(accepted).toBeGreaterThan(minAccepted);
      },
      120_000,
    );
  });

  it('keeps memory flat over another 1,000 fuzzed requests, and never answered 5xx', async () => {
    const heapUsed = () => {
      collectGarbage();
      return process.memoryUsage().heapUsed;
    };
    const before = heapUsed();
    await fc.assert(fetchAdsProperty(), { seed: SEED + 1, numRuns: 500, endOnFailure: true });
    await fc.assert(managementProperty(), { seed: SEED + 1, numRuns: 500, endOnFailure: true });
    const growth = heapUsed() - before;
    console.log(`fuzz heap growth over 1,000 requests: ${(growth / 1e6).toFixed(1)} MB`);
    expect(growth).toBeLessThan(MAX_HEAP_GROWTH);
    expect(tally.failures).toEqual([]);
    expect(tally.serverErrors).toBe(0);
    expect(tally.requests).toBeGreaterThan(3_000);
  }, 180_000);
});
