import { Clock } from '@/common/clock';
import { appWithInbox, jsonPost } from '@test/support/mail-suite';
import { expectProblem } from '@test/support/problem';
import { linkIn, tokenIn } from '@test/support/smtp-inbox';
import { startTestApp } from '@test/support/test-app';
import { testDatabaseKind } from '@test/support/test-database';

const OLD_PASSWORD = 'old enough password';
const NEW_PASSWORD = 'a brand new passphrase';
const RESET_MAIL = /reset/i;

describe(`forgot and reset password by mail (${testDatabaseKind()})`, () => {
  let n = 0;

  const app = appWithInbox();

  /** A publisher signed up over HTTP, with the bearer token of that sign-up. */
  const signUp = async () => {
    const email = `reset${++n}@example.test`;
    const response = await app.t.http(
      '/api/auth/register',
      jsonPost({ email, password: OLD_PASSWORD, name: 'Ada' }),
    );
    expect(response.status).toBe(201);
    const { access_token: token } = (await response.json()) as { access_token: string };
    return { email, token };
  };
  const login = (email: string, password: string) =>
    app.t.http('/api/auth/login', jsonPost({ email, password }));
  const forgot = (email: string) => app.t.http('/api/auth/forgot-password', jsonPost({ email }));
  const reset = (token: string, password: string) =>
    app.t.http('/api/auth/reset-password', jsonPost({ token, new_password: password }));
  const profile = (token: string) =>
    app.t.http('/api/publisher', { headers: { authorization: `Bearer ${token}` } });

  it('mails a link; resetting with it changes the password and ends every session, and the link works once', async () => {
    const { email, token: session } = await signUp();
    const answer = await forgot(email.toUpperCase());
    expect(answer.status).toBe(202);
    expect(await answer.json()).toEqual({ message: expect.any(String) });

    const mail = await app.inbox.waitForMail(email, { subject: RESET_MAIL });
    expect(mail.subject).toContain(app.t.config.serviceName);
    expect(linkIn(mail)).toBe(`${app.t.baseUrl}/dashboard/#/reset-password?token=${tokenIn(mail)}`);
    expect(tokenIn(mail)).toMatch(/^[A-Za-z0-9_-]{43}$/);

    expect((await reset(tokenIn(mail), NEW_PASSWORD)).status).toBe(204);
    await expectProblem(await profile(session), 401, 'unauthorized');
    await expectProblem(await login(email, OLD_PASSWORD), 401, 'invalid_credentials');
    expect((await login(email, NEW_PASSWORD)).status).toBe(200);
    await expectProblem(
      await reset(tokenIn(mail), 'yet another passphrase'),
      400,
      'invalid_reset_token',
    );
  });

  it('answers an unknown address exactly as a known one, and mails nothing to it', async () => {
    const { email } = await signUp();
    const unknown = `nobody${n}@example.test`;
    const forUnknown = await forgot(unknown);
    const forKnown = await forgot(email);
    expect(forUnknown.status).toBe(forKnown.status);
    expect(await forUnknown.text()).toBe(await forKnown.text());
    await app.inbox.waitForMail(email, { subject: RESET_MAIL });
    expect(app.inbox.mailsTo(unknown)).toEqual([]);
  });

  it('refuses an unknown token and a token older than one hour with 400', async () => {
    await expectProblem(
      await reset('not-a-token-we-sent', NEW_PASSWORD),
      400,
      'invalid_reset_token',
    );
    const { email } = await signUp();
    await forgot(email);
    const token = tokenIn(await app.inbox.waitForMail(email, { subject: RESET_MAIL }));
    const clock = app.t.app.get(Clock);
    const realNow = clock.now.bind(clock);
    clock.now = () => new Date(realNow().getTime() + 61 * 60_000);
    try {
      await expectProblem(await reset(token, NEW_PASSWORD), 400, 'invalid_reset_token');
    } finally {
      clock.now = realNow;
    }
    expect((await login(email, OLD_PASSWORD)).status).toBe(200);
  });

  it('refuses a weak new password with 400 and keeps the link usable', async () => {
    const { email } = await signUp();
    await forgot(email);
    const token = tokenIn(await app.inbox.waitForMail(email, { subject: RESET_MAIL }));
    const weak = await expectProblem(await reset(token, 'short'), 400, 'validation_failed');
    expect(weak.errors?.map((e) => e.field)).toEqual(['new_password']);
    expect((await reset(token, NEW_PASSWORD)).status).toBe(204);
  });

  it('answers 429 with Retry-After once an address has asked too often', async () => {
    const limited = await startTestApp({
      SMTP_URL: app.inbox.url,
      LOGIN_RATE_LIMIT_PER_MINUTE: '3',
    });
    try {
      const ask = () =>
        limited.http('/api/auth/forgot-password', jsonPost({ email: 'often@example.test' }));
      for (let i = 0; i < 3; i++) expect((await ask()).status).toBe(202);
      const refused = await ask();
      await expectProblem(refused, 429, 'rate_limited');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });
});
