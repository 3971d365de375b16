import fc from 'fast-check';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { SignedIn, SignedInPublisher } from '../factories';
import { startTestApp, TestApp } from '../support/test-app';
import { testDatabaseKind } from '../support/test-database';

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

// ---- generators -------------------------------------------------------------------------

/** Text that has broken parsers before: NUL, lone surrogates, RTL, emoji, zero-width, `%`. */
const TRICKY = [
  '\u0000',
  '\ud800',
  '\udfff',
  '\ud83d\ude00',
  '👩‍💻',
  'שלום',
  'مرحبا',
  '\u202e',
  '\u200b',
  '\ufeff',
  '\u00a0',
  '%',
  '%ff',
  '\\',
  '"',
  "'",
  '<script>',
  '__proto__',
  'constructor',
  '\r\n',
  ' ',
  'Ω≈ç√',
];

const trickyText = fc
  .array(
    fc.oneof(
      { weight: 3, arbitrary: fc.string({ maxLength: 12 }) },
      { weight: 3, arbitrary: fc.constantFrom(...TRICKY) },
      { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 8 }) },
      { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 8 }) },
    ),
    { maxLength: 8 },
  )
  .map((parts) => parts.join(''));

const hugeText = fc
  .tuple(fc.constantFrom('a', '😀', '\u0000', 'ש'), fc.integer({ min: 1_000, max: 30_000 }))
  .map(([unit, times]) => unit.repeat(times));

const text = fc.oneof({ weight: 8, arbitrary: trickyText }, { weight: 1, arbitrary: hugeText });

/** Any JSON value, a few levels deep, with tricky text in keys and strings. */
const { value: anyJson } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    text,
    fc.integer(),
    fc.double(),
    fc.constantFrom(null, true, false, 0, -1, 1e308, Number.MAX_SAFE_INTEGER + 2),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(trickyText, fc.constantFrom('__proto__', 'constructor')), tie('value'), {
      maxKeys: 4,
    }),
  ),
}));

/** A field: usually a plausible value, otherwise anything (wrong type, null, array…). */
const field = <T>(plausible: fc.Arbitrary<T>): fc.Arbitrary<unknown> =>
  fc.oneof({ weight: 3, arbitrary: plausible }, { weight: 2, arbitrary: anyJson });

/** A body as sent on the wire: a (mostly) plausible object, any JSON, or raw broken text. */
const rawBody = (plausible: fc.Arbitrary<unknown>): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 6, arbitrary: plausible.map((value) => JSON.stringify(value)) },
    { weight: 2, arbitrary: anyJson.map((value) => JSON.stringify(value) ?? 'null') },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        '',
        '{',
        '{"a":1,}',
        'nul',
        '{"__proto__":{"admin":true}}',
        '{"constructor":{"prototype":{"admin":true}}}',
        '[]',
        '"text"',
        '{"a":"\\ud800"}',
        '\u0000',
        '['.repeat(5000) + ']'.repeat(5000),
        '{"a":'.repeat(40) + '1' + '}'.repeat(40),
      ),
    },
    { weight: 1, arbitrary: text },
  );

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/jsonx',
  '',
];

/** Header values a client can send: printable ASCII (fetch itself refuses control bytes). */
const headerValue = fc.oneof(
  fc.string({ unit: 'binary-ascii', maxLength: 40 }).map((v) => v.replace(/[^\x20-\x7e]/g, '')),
  fc.constantFrom('', ' ', 'a'.repeat(8_000), '%ff', '\\u0000'),
);

/** Query strings built from raw chunks, so broken escapes reach the server as they are. */
const rawQueryPart = fc.oneof(
  trickyText.map((v) => {
    try {
      return encodeURIComponent(v);
    } catch {
      return 'x'; // a lone surrogate cannot be percent-encoded as UTF-8 by the client
    }
  }),
  fc.constantFrom('%', '%ff', '%zz', '%00', '%ED%A0%80', '%E2%80%AE', '+', '[]', '[0]', '=', '&'),
);

const PLAUSIBLE_QUERY_VALUES = [
  ...['1', '0', '-1', '100', '101', '1e3', '99999999999999999999', ''],
  ...['2026-11-01', '2026-02-30', '2020-01-01', 'csv', 'json', 'active', 'paused', 'archived'],
];

const queryString = (keys: string[]): fc.Arbitrary<string> =>
  fc
    .array(
      fc.tuple(
        fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...keys) }, rawQueryPart),
        fc.oneof(
          fc.constantFrom(...PLAUSIBLE_QUERY_VALUES),
          fc.array(rawQueryPart, { maxLength: 3 }).map((parts) => parts.join('')),
        ),
      ),
      { maxLength: 6 },
    )
    .map((pairs) => pairs.map(([key, value]) => `${key}=${value}`).join('&'));

/** A path segment: a real id, or something that is not one. */
const segment = (real: string[]): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...real) },
    rawQueryPart,
    fc.constantFrom(
      '%ff',
      '%2F',
      '..',
      '%00',
      'a'.repeat(150),
      '00000000-0000-0000-0000-000000000000',
    ),
  );

// ---- checking answers ----------------------------------------------------------------------

interface Tally {
  requests: number;
  serverErrors: number;
  /** Answers per status, printed at the end to show the fuzzing reaches past validation. */
  statuses: Record<number, number>;
  failures: string[];
}

describe(`fuzzing every entry point (${testDatabaseKind()})`, () => {
  let t: TestApp;
  let publisher: SignedInPublisher;
  let admin: SignedIn;
  let adsKey: string;
  let clickQuery: string;
  let advertiserId: string;
  let ids: Record<'model' | 'key' | 'publisher' | 'advertiser' | 'campaign', string>;
  const tally: Tally = { requests: 0, serverErrors: 0, statuses: {}, failures: [] };

  /**
   * Sends one request and checks its answer: 2xx/3xx, or 4xx application/problem+json
   * with a string `code`. Returns the parsed JSON body (or null).
   */
  async function send(label: string, path: string, init: RequestInit = {}): Promise<unknown> {
    tally.requests += 1;
    const response = await t.http(path, { redirect: 'manual', ...init });
    const bodyText = await response.text();
    const type = response.headers.get('content-type') ?? '';
    tally.statuses[response.status] = (tally.statuses[response.status] ?? 0) + 1;
    if (response.status >= 500) tally.serverErrors += 1;
    const json = type.includes('json') && bodyText ? (JSON.parse(bodyText) as unknown) : null;
    const problemOk =
      response.status < 400 ||
      (response.status < 500 &&
        type.startsWith('application/problem+json') &&
        typeof (json as { code?: unknown } | null)?.code === 'string');
    if (!problemOk) {
      const request = `${init.method ?? 'GET'} ${path.slice(0, 120)}`;
      tally.failures.push(
        `${label}: ${request} → ${response.status} ${type} ${bodyText.slice(0, 200)}`,
      );
    }
    // Named, so that a failing run says which request broke the rule, not just "false".
    expect(problemOk ? null : tally.failures.at(-1)).toBeNull();
    return json;
  }

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

  /** Every field any management body takes, each plausible or not. */
  const managementBody = fc.record(
    {
      name: field(text),
      description: field(text),
      link: field(fc.constantFrom('https://model.example', 'javascript:alert(1)', 'http://')),
      status: field(fc.constantFrom('active', 'paused', 'archived', 'deactivated', 'inactive')),
      revenue_share: field(fc.constantFrom(0.5, 0.1234567, 2, -1)),
      contact_email: field(fc.constantFrom('ads@example.test', 'nope')),
      advertiser_id: field(fc.constant('')),
      text: field(text),
      target_url: field(fc.constantFrom('https://advertiser.example/x', 'ftp://x')),
      keywords: field(fc.array(text, { maxLength: 5 })),
      bid_per_click: field(fc.constantFrom(0.1, 0, 1e9, 1e10, 0.0000001)),
      budget_total: field(fc.constantFrom(10, null, -5)),
      budget_daily: field(fc.constantFrom(1, null)),
      starts_at: field(fc.constantFrom('2026-01-01T00:00:00Z', '2026-01-01', null)),
      ends_at: field(fc.constantFrom('2027-01-01T00:00:00Z', 'tomorrow', null)),
      countries: field(fc.constantFrom(['DE'], ['XX'], [])),
      devices: field(fc.constantFrom(['mobile'], ['fridge'])),
      image_url: field(fc.constantFrom('https://img.example/a.png', null)),
    },
    { requiredKeys: [] },
  );

  /** Every management route but sign-out (which would end the fuzzing session). */
  const ROUTES: [method: string, path: string][] = [
    ['GET', '/api/publisher'],
    ['GET', '/api/models'],
    ['POST', '/api/models'],
    ['GET', '/api/models/{model}'],
    ['PATCH', '/api/models/{model}'],
    ['GET', '/api/models/{model}/keys'],
    ['POST', '/api/models/{model}/keys'],
    ['DELETE', '/api/models/{model}/keys/{key}'],
    ['GET', '/api/stats'],
    ['GET', '/api/admin/publishers'],
    ['PATCH', '/api/admin/publishers/{publisher}'],
    ['PATCH', '/api/admin/models/{model}'],
    ['GET', '/api/admin/advertisers'],
    ['POST', '/api/admin/advertisers'],
    ['GET', '/api/admin/advertisers/{advertiser}'],
    ['PATCH', '/api/admin/advertisers/{advertiser}'],
    ['GET', '/api/admin/campaigns'],
    ['POST', '/api/admin/campaigns'],
    ['GET', '/api/admin/campaigns/{campaign}'],
    ['PATCH', '/api/admin/campaigns/{campaign}'],
    ['GET', '/api/admin/campaigns/{campaign}/stats'],
    ['GET', '/api/admin/campaigns/{campaign}/audit'],
    ['GET', '/api/admin/reports/publishers'],
    ['GET', '/api/admin/reports/models'],
  ];
  const QUERY_KEYS = ['page', 'per_page', 'status', 'from', 'to', 'format', 'model_id'];

  /** A management route with any id in its path, query string, body and credentials. */
  const managementProperty = () => {
    const request = fc.record({
      route: fc.constantFrom(...ROUTES),
      ids: fc.record({
        model: segment([ids.model]),
        key: segment([ids.key]),
        publisher: segment([ids.publisher]),
        advertiser: segment([ids.advertiser]),
        campaign: segment([ids.campaign]),
      }),
      query: queryString(QUERY_KEYS),
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
      },
      {
        label: 'an advertiser',
        create: '/api/admin/advertisers',
        read: (id: string) => `/api/admin/advertisers/${id}`,
        body: (name: unknown) => ({ name }),
        fields: ['name'],
        as: () => admin,
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
      },
    ])(
      '$label',
      async ({ create, read, body, fields, as }) => {
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
        expect(accepted).toBeGreaterThan(20);
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
