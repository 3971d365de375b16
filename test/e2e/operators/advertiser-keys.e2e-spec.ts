import type { SignedIn } from '@test/factories';
import { body } from '@test/support/operator-api';
import { expectProblem } from '@test/support/problem';
import { startTestApp, TestApp } from '@test/support/test-app';
import { testDatabaseKind } from '@test/support/test-database';

describe(`Advertisers' conversion keys (${testDatabaseKind()})`, () => {
  let t: TestApp;
  let operator: SignedIn;
  let advertiserId: string;

  beforeAll(async () => {
    t = await startTestApp();
    operator = await t.f.operator();
    advertiserId = (await t.f.campaign()).advertiserId;
  });
  afterAll(() => t.close());

  const conversion = (key: string) =>
    t.http('/api/conversions', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ conversions: [{}] }),
    });

  it('creates a key shown once, lists keys without secrets, and revokes one at once', async () => {
    const created = await body(
      await operator.api('POST', `/api/admin/advertisers/${advertiserId}/keys`, {
        label: 'shop backend',
      }),
      201,
    );
    expect(created.key).toMatch(/^adl_adv_[\w-]{43}$/);
    expect(created).toMatchObject({ label: 'shop backend', revoked_at: null });
    expect(String(created.key).startsWith(String(created.key_prefix))).toBe(true);
    expect((await conversion(String(created.key))).status).toBe(200);

    const list = await body(
      await operator.api('GET', `/api/admin/advertisers/${advertiserId}/keys`),
      200,
    );
    expect(list.keys).toEqual([
      {
        id: created.id,
        key_prefix: created.key_prefix,
        label: 'shop backend',
        created_at: created.created_at,
        revoked_at: null,
      },
    ]);
    expect(JSON.stringify(list)).not.toContain(String(created.key));

    const revoked = await operator.api(
      'DELETE',
      `/api/admin/advertisers/${advertiserId}/keys/${String(created.id)}`,
    );
    expect(revoked.status).toBe(204);
    await expectProblem(await conversion(String(created.key)), 404, 'invalid_api_key');
  });

  it('answers 404 for an unknown advertiser or key, and 403 to a publisher', async () => {
    await expectProblem(
      await operator.api('POST', '/api/admin/advertisers/nope/keys', {}),
      404,
      'advertiser_not_found',
    );
    await expectProblem(
      await operator.api('DELETE', `/api/admin/advertisers/${advertiserId}/keys/nope`),
      404,
      'advertiser_key_not_found',
    );
    const publisher = await t.f.signedInPublisher();
    expect((await publisher.api('GET', `/api/admin/advertisers/${advertiserId}/keys`)).status).toBe(
      403,
    );
  });

  it('refuses a conversion without a key or with a made-up one', async () => {
    await expectProblem(
      await t.http('/api/conversions', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      }),
      404,
      'missing_api_key',
    );
    await expectProblem(await conversion(`adl_adv_${'x'.repeat(43)}`), 404, 'invalid_api_key');
  });
});
