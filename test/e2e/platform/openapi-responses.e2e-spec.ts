import {
  checkResponse,
  formatMismatch,
  type ObservedResponse,
} from '@test/support/openapi-responses';
import { recorderMode, ResponseRecorder } from '@test/support/openapi-recorder';
import { startTestApp, TestApp } from '@test/support/test-app';

/*
 * The checker every e2e suite runs behind (test/support/openapi-recorder.ts) must fail on an
 * answer that breaks openapi.json; were it to pass everything, the whole e2e run would too.
 */

const problem = (status: number, code: string) =>
  JSON.stringify({ type: `urn:adline:problem:${code}`, title: 'T', status, detail: 'D', code });

const answer = (overrides: Partial<ObservedResponse>): ObservedResponse => ({
  method: 'GET',
  url: '/health/live',
  status: 200,
  contentType: 'application/json; charset=utf-8',
  body: JSON.stringify({ status: 'ok', info: {}, error: {}, details: {} }),
  ...overrides,
});

describe('the OpenAPI response checker', () => {
  it('accepts a documented status with a body of its schema', () => {
    expect(checkResponse(answer({}))).toEqual({ kind: 'ok', operation: 'live (GET /health/live)' });
  });

  it('fails a status the operation does not document, naming the ones it does', () => {
    const verdict = checkResponse(
      answer({
        status: 418,
        contentType: 'application/problem+json',
        body: problem(418, 'internal'),
      }),
    );
    expect(verdict).toMatchObject({
      kind: 'mismatch',
      mismatch: {
        operation: 'live (GET /health/live)',
        status: 418,
        problem: 'status 418 is not documented (documented: 200, 431, 500)',
      },
    });
  });

  it('fails a body missing a required field, with the validator naming it', () => {
    const verdict = checkResponse(
      answer({ body: JSON.stringify({ status: 'ok', info: {}, error: {} }) }),
    );
    expect(verdict).toMatchObject({
      kind: 'mismatch',
      mismatch: { errors: ["(body) must have required property 'details'"] },
    });
  });

  it('fails a problem body of the wrong shape and a content type the status does not document', () => {
    const badProblem = checkResponse(
      answer({
        method: 'POST',
        url: '/api/fetch-ads',
        status: 404,
        contentType: 'application/problem+json',
        body: JSON.stringify({
          type: 'urn:adline:problem:x',
          title: 'T',
          status: '404',
          code: 'nope',
        }),
      }),
    );
    expect(badProblem).toMatchObject({
      kind: 'mismatch',
      mismatch: { operation: 'fetchAds (POST /api/fetch-ads)' },
    });
    const errors = badProblem.kind === 'mismatch' ? badProblem.mismatch.errors : [];
    expect(errors).toEqual(
      expect.arrayContaining([
        "(body) must have required property 'detail'",
        '/status must be integer',
        expect.stringMatching(/^\/code must be equal to one of the allowed values/),
      ]),
    );

    const asJson = checkResponse(
      answer({
        method: 'POST',
        url: '/api/fetch-ads',
        status: 404,
        body: problem(404, 'invalid_api_key'),
      }),
    );
    expect(asJson).toMatchObject({
      kind: 'mismatch',
      mismatch: {
        problem: 'content type application/json is not the documented application/problem+json',
      },
    });
  });

  it('lets null through only where the document says nullable', () => {
    const advertiser = (overrides: Record<string, unknown>) =>
      answer({
        url: '/api/admin/advertisers/019a8a3e-0000-7cc1-9d0e-3f2a1b4c5d6e',
        body: JSON.stringify({
          id: '019a8a3e-0000-7cc1-9d0e-3f2a1b4c5d6e',
          name: 'Acme',
          contact_email: 'ads@acme.example',
          status: 'active',
          created_at: '2026-11-21T12:00:00.000Z',
          updated_at: '2026-11-21T12:00:00.000Z',
          ...overrides,
        }),
      });
    expect(checkResponse(advertiser({ contact_email: null }))).toEqual({
      kind: 'ok',
      operation: 'getAdvertiser (GET /api/admin/advertisers/{id})',
    });
    expect(checkResponse(advertiser({ name: null }))).toMatchObject({
      kind: 'mismatch',
      mismatch: { errors: ['/name must be string'] },
    });
  });

  it('fails a path the document does not name unless the list of outside answers says why', () => {
    expect(checkResponse(answer({ url: '/api/undocumented', status: 200 }))).toMatchObject({
      kind: 'mismatch',
      mismatch: { operation: 'GET /api/undocumented' },
    });
    expect(
      checkResponse(answer({ url: '/dashboard/app.js', contentType: 'text/javascript', body: '' })),
    ).toMatchObject({
      kind: 'outside',
    });
    // An unknown route's 404 is outside the document, but still has to be a problem.
    const unknown = { url: '/api/nope', status: 404, contentType: 'application/problem+json' };
    expect(checkResponse(answer({ ...unknown, body: problem(404, 'not_found') }))).toMatchObject({
      kind: 'outside',
    });
    expect(checkResponse(answer({ ...unknown, body: '{"message":"Not Found"}' }))).toMatchObject({
      kind: 'mismatch',
    });
  });

  it('judges a HEAD answer as its GET operation, without a body', () => {
    expect(checkResponse(answer({ method: 'HEAD', body: '' }))).toEqual({
      kind: 'ok',
      operation: 'live (HEAD /health/live)',
    });
    expect(checkResponse(answer({ method: 'HEAD', status: 302, body: '' }))).toMatchObject({
      kind: 'mismatch',
      mismatch: { problem: 'status 302 is not documented (documented: 200, 431, 500)' },
    });
  });

  it('reads OPENAPI_RESPONSES: enforce by default, report or off on request, nothing else', () => {
    expect(recorderMode(undefined)).toBe('enforce');
    expect(recorderMode('report')).toBe('report');
    expect(() => recorderMode('warn')).toThrow('OPENAPI_RESPONSES must be enforce, report or off');
  });

  describe('the recorder around fetch', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp();
    });
    afterAll(() => t.close());

    it('checks a real answer of the app and leaves its body to the caller', async () => {
      const recorder = new ResponseRecorder();
      const recorded = recorder.wrap(fetch);
      const live = await recorded(`${t.baseUrl}/health/live`);
      expect(await live.json()).toMatchObject({ status: 'ok' });
      expect(await recorder.take()).toEqual([]);
    });

    it('reports a loopback answer that breaks the document with operation, status, errors and body', async () => {
      const recorder = new ResponseRecorder();
      const broken = () =>
        Promise.resolve(
          new Response(JSON.stringify({ status: 'ok' }), {
            status: 200,
            headers: { 'content-type': 'application/json' },
          }),
        );
      const recorded = recorder.wrap(broken);
      await recorded(`${t.baseUrl}/health/live`);
      await recorded(`${t.baseUrl}/health/live`, { method: 'GET' });
      const mismatches = await recorder.take();
      expect(mismatches).toHaveLength(2);
      const message = formatMismatch(mismatches[0]);
      expect(message).toContain('live (GET /health/live) answered 200: the body does not match');
      expect(message).toContain("- (body) must have required property 'info'");
      expect(message).toContain('body: {"status":"ok"}');
      expect(await recorder.take()).toEqual([]);
    });

    it('leaves answers from anywhere but loopback alone', async () => {
      const recorder = new ResponseRecorder();
      const elsewhere = () => Promise.resolve(new Response('not the service', { status: 418 }));
      await recorder.wrap(elsewhere)('http://advertiser.example/health/live');
      expect(await recorder.take()).toEqual([]);
    });
  });
});
