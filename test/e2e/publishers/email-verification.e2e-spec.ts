import { Clock } from '@/common/clock';
import { appWithInbox, jsonPost, OPERATOR } from '@test/support/mail-suite';
import { expectProblem } from '@test/support/problem';
import { linkIn, tokenIn } from '@test/support/smtp-inbox';
import { testDatabaseKind } from '@test/support/test-database';

const VERIFICATION_MAIL = /confirm/i;

describe(`email verification (${testDatabaseKind()})`, () => {
  let n = 0;

  const app = appWithInbox();

  const signUp = async () => {
    const email = `verify${++n}@example.test`;
    const response = await app.t.http(
      '/api/auth/register',
      jsonPost({ email, password: 'old enough password', name: 'Ada' }),
    );
    expect(response.status).toBe(201);
    const body = (await response.json()) as {
      access_token: string;
      publisher: { email_verified: boolean };
    };
    expect(body.publisher.email_verified).toBe(false);
    return { email, token: body.access_token };
  };
  const verified = async (token: string) => {
    const response = await app.t.http('/api/publisher', {
      headers: { authorization: `Bearer ${token}` },
    });
    return ((await response.json()) as { email_verified: boolean }).email_verified;
  };
  const verify = (token: string) => app.t.http('/api/auth/verify-email', jsonPost({ token }));

  it('mails a link at sign-up; following it marks the address verified, once', async () => {
    const { email, token } = await signUp();
    expect(await verified(token)).toBe(false);
    const mail = await app.inbox.waitForMail(email, { subject: VERIFICATION_MAIL });
    expect(mail.subject).toContain(app.t.config.serviceName);
    expect(linkIn(mail)).toBe(`${app.t.baseUrl}/dashboard/#/verify-email?token=${tokenIn(mail)}`);

    expect((await verify(tokenIn(mail))).status).toBe(204);
    expect(await verified(token)).toBe(true);
    await expectProblem(await verify(tokenIn(mail)), 400, 'invalid_verification_token');
  });

  it('sends a new link on request, and refuses a link older than 24 hours', async () => {
    const { email, token } = await signUp();
    const first = tokenIn(await app.inbox.waitForMail(email, { subject: VERIFICATION_MAIL }));
    const clock = app.t.app.get(Clock);
    const realNow = clock.now.bind(clock);
    clock.now = () => new Date(realNow().getTime() + 24 * 3_600_000 + 60_000);
    try {
      await expectProblem(await verify(first), 400, 'invalid_verification_token');
    } finally {
      clock.now = realNow;
    }
    expect(await verified(token)).toBe(false);

    const resend = await app.t.http('/api/auth/resend-verification', jsonPost({}, token));
    expect(resend.status).toBe(202);
    const second = tokenIn(await app.inbox.waitForMail(email, { subject: VERIFICATION_MAIL }));
    expect(second).not.toBe(first);
    expect((await verify(second)).status).toBe(204);
    expect(await verified(token)).toBe(true);
  });

  it('counts the operator of ADMIN_EMAIL as verified', async () => {
    const response = await app.t.http('/api/auth/login', jsonPost(OPERATOR));
    const { access_token: token } = (await response.json()) as { access_token: string };
    expect(await verified(token)).toBe(true);
  });
});
