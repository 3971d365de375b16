import { expectProblem } from '@test/support/problem';
import { startTestApp, TestApp } from '@test/support/test-app';
import { testDatabaseKind } from '@test/support/test-database';

const json = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

describe(`accounts and sessions (${testDatabaseKind()})`, () => {
  let t: TestApp;
  let n = 0;
  const email = () => `person${++n}@example.test`;
  const register = (body: Record<string, unknown>) => t.http('/api/auth/register', json(body));
  const login = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    t.http('/api/auth/login', json(body, headers));

  beforeAll(async () => {
    t = await startTestApp({ LOGIN_RATE_LIMIT_PER_MINUTE: '5' });
  });
  afterAll(() => t.close());

  it('registers a publisher, answering 201 with the publisher, a bearer token and an HttpOnly SameSite=Strict cookie', async () => {
    const address = email();
    const response = await register({
      email: ` ${address.toUpperCase()} `,
      password: 'long enough pw',
      name: 'Ada',
    });
    expect(response.status).toBe(201);
    const body = (await response.json()) as {
      publisher: Record<string, unknown>;
      access_token: string;
    };
    expect(body.publisher).toMatchObject({
      email: address,
      name: 'Ada',
      role: 'publisher',
      status: 'active',
      revenue_share: 0.7,
    });
    expect(body.publisher).not.toHaveProperty('password_hash');
    expect(body.access_token).toEqual(expect.any(String));
    const cookie = response.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^adline_session=/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
    expect(cookie).not.toMatch(/Secure/i);
  });

  it('answers 409 for an email that is already registered, in any letter case', async () => {
    const address = email();
    expect((await register({ email: address, password: 'long enough pw', name: 'A' })).status).toBe(
      201,
    );
    await expectProblem(
      await register({ email: address.toUpperCase(), password: 'long enough pw', name: 'B' }),
      409,
      'email_taken',
    );
  });

  it('answers 400 with field errors for a short password or a bad email', async () => {
    const problem = await expectProblem(
      await register({ email: 'nope', password: 'short', name: 'A' }),
      400,
      'validation_failed',
    );
    expect(problem.errors?.map((e) => e.field).sort()).toEqual(['email', 'password']);
  });

  it('signs in with the right password and answers the same 401 for a wrong password or an unknown email', async () => {
    const address = email();
    await register({ email: address, password: 'long enough pw', name: 'A' });
    expect((await login({ email: address, password: 'long enough pw' })).status).toBe(200);
    const wrongPassword = await expectProblem(
      await login({ email: address, password: 'wrong password' }),
      401,
      'invalid_credentials',
    );
    const unknownEmail = await expectProblem(
      await login({ email: email(), password: 'wrong password' }),
      401,
      'invalid_credentials',
    );
    expect(wrongPassword).toEqual(unknownEmail);
  });

  it('limits sign-in attempts per email with 429 and Retry-After', async () => {
    const address = email();
    for (let i = 0; i < 5; i++) await login({ email: address, password: 'wrong password' });
    const limited = await login({ email: address, password: 'wrong password' });
    await expectProblem(limited, 429, 'rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('accepts the bearer token and the cookie alike, and sign-out ends the session for both', async () => {
    const response = await register({ email: email(), password: 'long enough pw', name: 'A' });
    const { access_token: token } = (await response.json()) as { access_token: string };
    const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0];
    const me = (headers: Record<string, string>) =>
      t.http('/api/auth/logout', { method: 'POST', headers });
    // Sign out with the cookie (same origin), then neither credential works any more.
    expect((await me({ cookie, origin: t.baseUrl })).status).toBe(204);
    await expectProblem(await me({ authorization: `Bearer ${token}` }), 401, 'unauthorized');
    await expectProblem(await me({ cookie }), 401, 'unauthorized');
  });

  it('refuses a cookie-authenticated change from a foreign origin', async () => {
    const response = await register({ email: email(), password: 'long enough pw', name: 'A' });
    const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0];
    await expectProblem(
      await t.http('/api/auth/logout', {
        method: 'POST',
        headers: { cookie, origin: 'https://evil.example' },
      }),
      403,
      'forbidden',
    );
  });

  it('answers 401 for a missing or forged token', async () => {
    await expectProblem(await t.http('/api/auth/logout', { method: 'POST' }), 401, 'unauthorized');
    await expectProblem(
      await t.http('/api/auth/logout', {
        method: 'POST',
        headers: { authorization: 'Bearer abc.def.ghi' },
      }),
      401,
      'unauthorized',
    );
  });
});
