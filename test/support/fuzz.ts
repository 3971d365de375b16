import fc from 'fast-check';
import type { TestApp } from './test-app';

/*
 * The generators and the answer check of the fuzzing suite (test/e2e/platform/fuzz.e2e-spec.ts).
 */

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

export const text = fc.oneof(
  { weight: 8, arbitrary: trickyText },
  { weight: 1, arbitrary: hugeText },
);

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
export const field = <T>(plausible: fc.Arbitrary<T>): fc.Arbitrary<unknown> =>
  fc.oneof({ weight: 3, arbitrary: plausible }, { weight: 2, arbitrary: anyJson });

/** A body as sent on the wire: a (mostly) plausible object, any JSON, or raw broken text. */
export const rawBody = (plausible: fc.Arbitrary<unknown>): fc.Arbitrary<string> =>
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

export const CONTENT_TYPES = [
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
export const headerValue = fc.oneof(
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

export const queryString = (keys: string[]): fc.Arbitrary<string> =>
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
export const segment = (real: string[]): fc.Arbitrary<string> =>
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

/** Every field any management body takes, each plausible or not. */
export const managementBody = fc.record(
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
export const MANAGEMENT_ROUTES: [method: string, path: string][] = [
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
export const MANAGEMENT_QUERY_KEYS = [
  'page',
  'per_page',
  'status',
  'from',
  'to',
  'format',
  'model_id',
];

// ---- checking answers ----------------------------------------------------------------------

export interface Tally {
  requests: number;
  serverErrors: number;
  /** Answers per status, printed at the end to show the fuzzing reaches past validation. */
  statuses: Record<number, number>;
  failures: string[];
}

/**
 * Sends requests to the app that `app()` returns and checks each answer, counting them all
 * in `tally`: one checker for the whole suite, so its last test can judge every request.
 */
export function answerChecker(app: () => TestApp) {
  const tally: Tally = { requests: 0, serverErrors: 0, statuses: {}, failures: [] };

  /**
   * Sends one request and checks its answer: 2xx/3xx, or 4xx application/problem+json
   * with a string `code`. Returns the parsed JSON body (or null).
   */
  async function send(label: string, path: string, init: RequestInit = {}): Promise<unknown> {
    tally.requests += 1;
    const response = await app().http(path, { redirect: 'manual', ...init });
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

  return { tally, send };
}
