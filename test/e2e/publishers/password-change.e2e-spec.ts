import { appWithInbox, jsonPost, OPERATOR } from '@test/support/mail-suite';
import { expectProblem } from '@test/support/problem';
import { testDatabaseKind } from '@test/support/test-database';

const PASSWORD = 'old enough password';
const NEW_PASSWORD = 'a brand new passphrase';

describe(`changing the password (${testDatabaseKind()})`, () => {
  let n = 0;

  const app = appWithInbox();

  const login = async (email: string, password: string) => {
    const response = await app.t.http('/api/auth/login', jsonPost({ email, password }));
    const body = (await response.json()) as { access_token: string };
    return { status: response.status, token: body.access_token };
  };
  const change = (token: string, current: string, next: string) =>
    app.t.http(
      '/api/auth/change-password',
      jsonPost({ current_password: current, new_password: next }, token),
    );
  const profile = (token: string) =>
    app.t.http('/api/publisher', { headers: { authorization: `Bearer ${token}` } });
  const signUp = async () => {
    const email = `change${++n}@example.test`;
    const response = await app.t.http(
      '/api/auth/register',
      jsonPost({ email, password: PASSWORD, name: 'Ada' }),
    );
    expect(response.status).toBe(201);
    return email;
  };

  it('refuses a wrong current password with 401; the right one changes it, ends the other sessions and keeps this one', async () => {
    const email = await signUp();
    const here = await login(email, PASSWORD);
    const elsewhere = await login(email, PASSWORD);

    await expectProblem(
      await change(here.token, 'not my password', NEW_PASSWORD),
      401,
      'invalid_credentials',
    );
    expect((await profile(elsewhere.token)).status).toBe(200);

    expect((await change(here.token, PASSWORD, NEW_PASSWORD)).status).toBe(204);
    expect((await profile(here.token)).status).toBe(200);
    await expectProblem(await profile(elsewhere.token), 401, 'unauthorized');
    expect((await login(email, PASSWORD)).status).toBe(401);
    expect((await login(email, NEW_PASSWORD)).status).toBe(200);
  });

  it('holds the new password to the password policy', async () => {
    const email = await signUp();
    const { token } = await login(email, PASSWORD);
    const problem = await expectProblem(
      await change(token, PASSWORD, 'aaaaaaaaaaaa'),
      400,
      'validation_failed',
    );
    expect(problem.errors?.map((e) => e.field)).toEqual(['new_password']);
    expect((await login(email, PASSWORD)).status).toBe(200);
  });

  it('lets an operator change their password too', async () => {
    const { token } = await login(OPERATOR.email, OPERATOR.password);
    expect((await change(token, OPERATOR.password, NEW_PASSWORD)).status).toBe(204);
    expect((await login(OPERATOR.email, NEW_PASSWORD)).status).toBe(200);
  });

  it('needs a session', async () => {
    await expectProblem(
      await app.t.http(
        '/api/auth/change-password',
        jsonPost({ current_password: PASSWORD, new_password: NEW_PASSWORD }),
      ),
      401,
      'unauthorized',
    );
  });
});
