import { connect } from 'node:net';
import { MAX_PAGE } from '@/common/dto/page-query.dto';
import type { SignedIn } from '@test/factories';
import { expectProblem } from '@test/support/problem';
import { startTestApp, TestApp } from '@test/support/test-app';
import { testDatabaseKind } from '@test/support/test-database';

/** A raw HTTP exchange, for requests `fetch` refuses to send (huge or invalid headers). */
function rawExchange(baseUrl: string, request: string): Promise<string> {
  const { port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.on('error', (error: NodeJS.ErrnoException) =>
      // The server may close while the rest of a huge request is still being sent.
      error.code === 'ECONNRESET' || error.code === 'EPIPE'
        ? resolve(Buffer.concat(chunks).toString('utf8'))
        : reject(error),
    );
    socket.setTimeout(15_000, () => socket.destroy(new Error('no answer within 15 s')));
    socket.write(request);
  });
}

/** Splits a raw HTTP/1.1 answer into its status, lower-cased headers and JSON body. */
function parseRaw(text: string): {
  status: number;
  headers: Record<string, string>;
  body: Record<string, unknown>;
} {
  const [head, ...rest] = text.split('\r\n\r\n');
  const [statusLine, ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
    }),
  );
  return {
    status: Number(statusLine.split(' ')[1]),
    headers,
    body: JSON.parse(rest.join('\r\n\r\n')) as Record<string, unknown>,
  };
}

const postJson = (body: string): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body,
});

describe(`bad input answers 4xx problem+json and changes nothing (${testDatabaseKind()})`, () => {
  let t: TestApp;
  let admin: SignedIn;
  let key: string;
  const count = async (table: string): Promise<number> => {
    const [row] = await t.dataSource.query<{ n: number | string }[]>(
      `SELECT COUNT(*) AS n FROM ${table}`,
    );
    return Number(row.n);
  };

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.f.signedInAdmin();
    ({ key } = await t.f.publisherWithKey());
    await t.f.campaign({ keywords: 'laptop' });
  });
  afterAll(() => t.close());

  describe('deeply nested JSON', () => {
    const deep = '['.repeat(2000) + ']'.repeat(2000);

    it.each(['/api/auth/login', '/api/auth/register'])(
      'answers 400 validation_failed on %s, without creating anything',
      async (path) => {
        const publishers = await count('publishers');
        const problem = await expectProblem(
          await t.http(path, postJson(deep)),
          400,
          'validation_failed',
        );
        expect(problem.detail).toBe('The JSON body is nested more than 32 levels deep.');
        expect(await count('publishers')).toBe(publishers);
      },
    );

    it('answers 400 on fetch-ads and records no impression', async () => {
      const impressions = await count('impressions');
      await expectProblem(await t.fetchAds(key, deep), 400, 'validation_failed');
      expect(await count('impressions')).toBe(impressions);
    });

    it('still serves a body nested 32 levels deep (an unknown field is dropped as usual)', async () => {
      const extra = JSON.parse('['.repeat(31) + ']'.repeat(31)) as unknown;
      const response = await t.fetchAds(key, {
        conversation: 'Which laptop?',
        context_keywords: 'laptop',
        extra,
      });
      expect(response.status).toBe(200);
    });
  });

  describe('a lone UTF-16 surrogate', () => {
    it('in the email answers 400 validation_failed on register and creates no account', async () => {
      const publishers = await count('publishers');
      const problem = await expectProblem(
        await t.http(
          '/api/auth/register',
          postJson('{"email":"\\ud800@example.test","password":"a long passphrase 9","name":"X"}'),
        ),
        400,
        'validation_failed',
      );
      expect(problem.errors).toEqual([
        { field: 'email', message: expect.stringContaining('valid Unicode') as string },
      ]);
      expect(await count('publishers')).toBe(publishers);
    });

    it('in the email answers 400 validation_failed on login', async () => {
      await expectProblem(
        await t.http('/api/auth/login', postJson('{"email":"\\ud800","password":"whatever12"}')),
        400,
        'validation_failed',
      );
    });

    it('in a model name answers 400, while emoji, RTL text and NUL are stored and read back exactly', async () => {
      const me = await t.f.signedInPublisher();
      const bad = await me.api('POST', '/api/models', { name: 'half \ud83d pair' });
      const problem = await expectProblem(bad, 400, 'validation_failed');
      expect(problem.errors?.[0].field).toBe('name');

      const name = '👩‍💻 مساعد\u0000 עברית';
      const created = await me.api('POST', '/api/models', { name });
      expect(created.status).toBe(201);
      const { id } = (await created.json()) as { id: string };
      const read = (await (await me.api('GET', `/api/models/${id}`)).json()) as { name: string };
      expect(read.name).toBe(name);
    });
  });

  describe('paging of the operator lists', () => {
    it.each(['campaigns', 'advertisers', 'publishers'])(
      'answers 400 for a page beyond the bound on /api/admin/%s, and an empty page at the bound',
      async (list) => {
        const problem = await expectProblem(
          await admin.api('GET', `/api/admin/${list}?page=99999999999999999999`),
          400,
          'validation_failed',
        );
        expect(problem.errors).toEqual([
          { field: 'page', message: `page must not be greater than ${MAX_PAGE}` },
        ]);
        await expectProblem(
          await admin.api('GET', `/api/admin/${list}?per_page=1e400`),
          400,
          'validation_failed',
        );
        const last = await admin.api('GET', `/api/admin/${list}?page=${MAX_PAGE}&per_page=100`);
        expect(last.status).toBe(200);
      },
    );

    it.each([
      ['page=abc', 'page'],
      ['page=0x10', 'page'],
      ['page=1e3', 'page'],
      ['page=1.5', 'page'],
      ['page=1&page=2', 'page'],
      ['per_page=abc', 'per_page'],
    ])(
      'answers %s with "must be a whole number", not a paging bound it did not break',
      async (query, field) => {
        const problem = await expectProblem(
          await admin.api('GET', `/api/admin/campaigns?${query}`),
          400,
          'validation_failed',
        );
        expect(problem.errors).toEqual([{ field, message: `${field} must be a whole number` }]);
      },
    );
  });

  describe('validation messages name the real fault', () => {
    const fetchAds = (body: unknown): Promise<Response> =>
      t.http('/api/fetch-ads', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'service-api-key': key },
        body: JSON.stringify(body),
      });
    const errorsOf = async (response: Response): Promise<{ field: string; message: string }[]> =>
      (await expectProblem(response, 400, 'validation_failed')).errors ?? [];

    it('says a missing campaign_id is missing, not too long', async () => {
      const errors = await errorsOf(await t.http('/api/campaign_click?model_id=m'));
      expect(errors).toEqual([{ field: 'campaign_id', message: 'campaign_id is required' }]);
    });

    it.each([
      [{ conversation: 5, context_keywords: 'laptop' }, 'conversation', 'must be a string'],
      [{ conversation: 'hi', context_keywords: 5 }, 'context_keywords', 'must be a string'],
      [
        { conversation: 'hi', context_keywords: 'x', session_id: 5 },
        'session_id',
        'must be a string',
      ],
      [{ conversation: 'hi', context_keywords: 'x', locale: 7 }, 'locale', 'must be a string'],
      [
        { conversation: 'hi', context_keywords: 'x', max_ads: 'two' },
        'max_ads',
        'must be an integer',
      ],
      [
        { conversation: 'hi', context_keywords: 'x', excluded_topics: '386' },
        'excluded_topics',
        'must be an array',
      ],
    ])('fetch-ads %j: names the wrong type of %s, alone', async (body, field, words) => {
      const errors = await errorsOf(await fetchAds(body));
      expect(errors).toEqual([{ field, message: expect.stringContaining(words) as string }]);
    });

    it('fetch-ads without its fields says each is required, once', async () => {
      expect(await errorsOf(await fetchAds({ context_keywords: 'laptop' }))).toEqual([
        { field: 'conversation', message: 'conversation is required' },
      ]);
    });

    it('register with numbers says they are not strings; without fields, that they are required', async () => {
      const register = (body: unknown) =>
        t.http('/api/auth/register', postJson(JSON.stringify(body)));
      const wrongTypes = await errorsOf(await register({ email: 5, password: 7, name: 'Ada' }));
      expect(wrongTypes).toHaveLength(2);
      expect(wrongTypes).toEqual(
        expect.arrayContaining([
          { field: 'email', message: 'email must be a string' },
          { field: 'password', message: 'password must be a string' },
        ]),
      );
      const missing = await errorsOf(await register({}));
      expect(missing.map((error) => error.message).sort()).toEqual([
        'email is required',
        'name is required',
        'password is required',
      ]);
    });

    it('an advertiser contact_email of the wrong type is named as such', async () => {
      const errors = await errorsOf(
        await admin.api('POST', '/api/admin/advertisers', { name: 'Acme', contact_email: 5 }),
      );
      expect(errors).toEqual([
        { field: 'contact_email', message: 'contact_email must be a string' },
      ]);
    });
  });

  describe("Fastify's and Node's own errors", () => {
    /** The security headers on an ordinary answer (an unknown route's 404). */
    let securityHeaders: [string, string][];
    beforeAll(async () => {
      const ordinary = await t.http('/api/nothing-here');
      const notSecurity =
        /^(content-type|content-length|date|connection|keep-alive|x-request-id|cache-control)$/;
      securityHeaders = [...ordinary.headers].filter(([name]) => !notSecurity.test(name));
      // Helmet's defaults, as a browser needs them (not merely the same list everywhere).
      const ordinaryHeader = (name: string) => ordinary.headers.get(name);
      expect(ordinaryHeader('x-content-type-options')).toBe('nosniff');
      expect(ordinaryHeader('x-frame-options')).toBe('SAMEORIGIN');
      expect(ordinaryHeader('referrer-policy')).toBe('no-referrer');
      expect(ordinaryHeader('strict-transport-security')).toMatch(/^max-age=\d+/);
      expect(ordinaryHeader('content-security-policy')).toContain("frame-ancestors 'self'");
    });
    /** What every answer carries, however early it was refused. */
    const expectGuarded = (header: (name: string) => string | null | undefined) => {
      for (const [name, value] of securityHeaders)
        expect([name, header(name)]).toEqual([name, value]);
      expect(header('cache-control')).toBe('no-store');
      expect(header('x-request-id')).toBeTruthy();
    };

    it('answers 400 bad_url for a path with invalid percent-encoding', async () => {
      const response = await t.http('/api/models/%ff');
      await expectProblem(response, 400, 'bad_url');
      expectGuarded((name) => response.headers.get(name));
    });

    it('answers 404 not_found for an id longer than any resource has', async () => {
      const response = await t.http(`/api/models/${'a'.repeat(300)}`);
      await expectProblem(response, 404, 'not_found');
      expectGuarded((name) => response.headers.get(name));
    });

    it('answers 404 not_found for an unknown route', async () => {
      await expectProblem(await t.http('/api/nothing-here'), 404, 'not_found');
    });

    it('answers 400 malformed_json for a __proto__ key, and 400 for an empty JSON body', async () => {
      await expectProblem(
        await t.http('/api/auth/login', postJson('{"__proto__":{"admin":true}}')),
        400,
        'malformed_json',
      );
      await expectProblem(await t.http('/api/auth/login', postJson('')), 400, 'validation_failed');
    });

    it('answers 415 for a text body and 413 for a body over the limit', async () => {
      await expectProblem(
        await t.http('/api/auth/login', {
          method: 'POST',
          headers: { 'content-type': 'text/plain' },
          body: 'x',
        }),
        415,
        'unsupported_media_type',
      );
      await expectProblem(
        await t.http('/api/auth/login', postJson(JSON.stringify({ email: 'x'.repeat(70_000) }))),
        413,
        'payload_too_large',
      );
    });

    it('answers 431 header_too_large as problem+json for a 70 KB header', async () => {
      const answer = parseRaw(
        await rawExchange(
          t.baseUrl,
          `GET /health/live HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(70_000)}\r\n\r\n`,
        ),
      );
      expect(answer.status).toBe(431);
      expect(answer.headers['content-type']).toBe('application/problem+json');
      expectGuarded((name) => answer.headers[name]);
      expect(answer.body).toMatchObject({ status: 431, code: 'header_too_large' });
    });

    it.each([
      [
        'a control byte in a header',
        'GET /health/live HTTP/1.1\r\nHost: x\r\nX-A: a\u0001b\r\n\r\n',
      ],
      ['a request line that is not HTTP', 'HELLO\r\n\r\n'],
      [
        'a non-numeric Content-Length',
        'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n',
      ],
    ])('answers 400 bad_request as problem+json for %s', async (_label, request) => {
      const answer = parseRaw(await rawExchange(t.baseUrl, request));
      expect(answer.status).toBe(400);
      expect(answer.headers['content-type']).toBe('application/problem+json');
      expectGuarded((name) => answer.headers[name]);
      expect(answer.body).toMatchObject({
        type: 'urn:adline:problem:bad_request',
        title: 'Malformed HTTP request',
        status: 400,
        code: 'bad_request',
      });
    });

    it('keeps serving after all of that', async () => {
      expect((await t.http('/health/live')).status).toBe(200);
    });
  });
});
