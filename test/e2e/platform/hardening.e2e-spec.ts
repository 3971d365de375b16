import { expectProblem } from '@test/support/problem';
import { startTestApp, TestApp } from '@test/support/test-app';
import { testDatabaseKind } from '@test/support/test-database';

const post = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

describe(`secrets are never cached, security headers everywhere, weak passwords refused (${testDatabaseKind()})`, () => {
  let t: TestApp;
  let n = 0;
  const email = () => `hardening${++n}@example.test`;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  describe('Cache-Control: no-store on every answer that carries a secret', () => {
    it('on register and sign-in (bearer token and session cookie)', async () => {
      const address = email();
      const registered = await t.http(
        '/api/auth/register',
        post({ email: address, password: 'long enough pw', name: 'Ada' }),
      );
      expect(registered.status).toBe(201);
      expect(registered.headers.get('cache-control')).toBe('no-store');

      const signedIn = await t.http(
        '/api/auth/login',
        post({ email: address, password: 'long enough pw' }),
      );
      expect(signedIn.status).toBe(200);
      expect(signedIn.headers.get('cache-control')).toBe('no-store');
    });

    it('on key creation (the only answer holding the key)', async () => {
      const publisher = await t.f.signedInPublisher();
      const created = await publisher.api('POST', `/api/models/${publisher.model.id}/keys`, {});
      expect(created.status).toBe(201);
      expect(created.headers.get('cache-control')).toBe('no-store');
    });

    it('on error answers of the API too', async () => {
      const refused = await t.fetchAds(null, { conversation: 'hello' });
      expect(refused.status).toBe(404); // missing_api_key, as the specification has it
      expect(refused.headers.get('cache-control')).toBe('no-store');
    });
  });

  describe('security headers on the API, /docs and the dashboard', () => {
    it.each([
      ['a fetch-ads error', () => t.fetchAds(null, { conversation: 'hello' })],
      ['the health check', () => t.http('/health/live')],
      ['the API documentation', () => t.http('/docs')],
      ['the OpenAPI document', () => t.http('/docs/openapi.json')],
      ['a route that does not exist', () => t.http('/api/nothing-here')],
    ])('%s', async (_label, send) => {
      const response = await send();
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('x-frame-options')).toBe('SAMEORIGIN');
      expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'self'");
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
      expect(response.headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
    });

    it('lets Swagger UI load its own scripts and nothing from elsewhere', async () => {
      const docs = await t.http('/docs');
      expect(docs.status).toBe(200);
      const policy = docs.headers.get('content-security-policy') ?? '';
      expect(policy).toContain("script-src 'self'");
      expect(policy).toContain("default-src 'self'");
      // Over plain http, upgrading would send Swagger UI's scripts to https and break /docs.
      expect(policy).not.toContain('upgrade-insecure-requests');
      expect(await docs.text()).toContain('swagger-ui-bundle.js');
    });

    it("keeps the dashboard's own stricter policy, or says how to build it", async () => {
      const page = await t.http('/dashboard/');
      expect(page.headers.get('x-content-type-options')).toBe('nosniff');
      // `npm test` on a fresh clone runs before any build; CI builds the dashboard first.
      if (page.status === 503) {
        expect(await page.text()).toContain('npm run build');
        return;
      }
      expect(page.status).toBe(200);
      expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(page.headers.get('x-frame-options')).toBe('DENY');
    });
  });

  describe('passwords', () => {
    it.each([
      ['shorter than 10 characters', 'nine char', 'at least 10 characters'],
      ['one character repeated', 'aaaaaaaaaaaa', 'one character repeated'],
      ['one emoji repeated', '🙂🙂🙂🙂🙂🙂🙂🙂🙂🙂', 'one character repeated'],
      ['a common password', 'password123', 'most common passwords'],
      ['a common password in other letter case', 'QwertyUiop', 'most common passwords'],
      ['a common password of digits', '1234567890', 'most common passwords'],
    ])('refuses a password %s, and registers nobody', async (_label, password, why) => {
      const address = email();
      const problem = await expectProblem(
        await t.http('/api/auth/register', post({ email: address, password, name: 'Eve' })),
        400,
        'validation_failed',
      );
      expect(problem.errors).toEqual([
        { field: 'password', message: expect.stringContaining(why) as string },
      ]);
      // Nothing was stored: the same email registers with a good password afterwards.
      const retried = await t.http(
        '/api/auth/register',
        post({ email: address, password: 'a much better passphrase', name: 'Eve' }),
      );
      expect(retried.status).toBe(201);
    });

    it('counts characters, not UTF-16 units: ten emoji of several kinds are enough', async () => {
      const response = await t.http(
        '/api/auth/register',
        post({ email: email(), password: '🙂🙃😀😁😂🤣😃😄😅😆', name: 'Emoji' }),
      );
      expect(response.status).toBe(201);
    });

    it('does not apply the new rules at sign-in, so existing accounts keep working', async () => {
      const refused = await t.http(
        '/api/auth/login',
        post({ email: 'nobody@example.test', password: 'password123' }),
      );
      await expectProblem(refused, 401, 'invalid_credentials');
    });
  });
});
