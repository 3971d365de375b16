import { type SmtpInbox, startSmtpInbox } from './smtp-inbox';
import { startTestApp, type TestApp } from './test-app';

/** A JSON POST, signed in with `token` when one is given. */
export const jsonPost = (body: unknown, token?: string): RequestInit => ({
  method: 'POST',
  headers: {
    'content-type': 'application/json',
    ...(token ? { authorization: `Bearer ${token}` } : {}),
  },
  body: JSON.stringify(body),
});

/** The operator account the mail suites' apps bootstrap (ADMIN_EMAIL, ADMIN_PASSWORD). */
export const OPERATOR = { email: 'root@example.test', password: 'operator passphrase' };

/**
 * An app whose account mail goes to an in-process SMTP server, started before the suite's
 * tests and closed after them. Call it at the top of a `describe`; read `t` and `inbox`
 * inside the tests.
 */
export function appWithInbox(env: Record<string, string> = {}): {
  readonly t: TestApp;
  readonly inbox: SmtpInbox;
} {
  let t: TestApp | undefined;
  let inbox: SmtpInbox | undefined;
  beforeAll(async () => {
    inbox = await startSmtpInbox();
    t = await startTestApp({
      SMTP_URL: inbox.url,
      ADMIN_EMAIL: OPERATOR.email,
      ADMIN_PASSWORD: OPERATOR.password,
      ...env,
    });
  });
  afterAll(async () => {
    await t?.close();
    await inbox?.close();
  });
  return {
    get t() {
      return t!;
    },
    get inbox() {
      return inbox!;
    },
  };
}
