import { OperatorAccounts } from '@/auth/operator-accounts.service';
import { ConfigError } from '@/config/environment';
import { DemoSeeder } from '@/demo/demo-seeder.service';
import { Impression } from '@/tracking/entities/impression.entity';
import { createAdmin } from '../../../scripts/create-admin';
import { ask, campaignLink, followAsBrowser } from '@test/support/ads';
import { expectProblem } from '@test/support/problem';
import { startTestApp, TestApp } from '@test/support/test-app';
import { testDatabaseKind } from '@test/support/test-database';

const json = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

describe(`the first operator (${testDatabaseKind()})`, () => {
  let t: TestApp;
  const ADMIN = { email: 'ops@adline.test', password: 'operator password 1' };
  const login = (email: string, password: string) =>
    t.http('/api/auth/login', json({ email, password }));

  beforeAll(async () => {
    t = await startTestApp({ ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
  });
  afterAll(() => t.close());

  it('is created from ADMIN_EMAIL and ADMIN_PASSWORD at start-up, and can use the admin routes', async () => {
    const response = await login(ADMIN.email, ADMIN.password);
    expect(response.status).toBe(200);
    const session = (await response.json()) as {
      access_token: string;
      publisher: { role: string };
    };
    expect(session.publisher.role).toBe('admin');
    const list = await t.http('/api/admin/publishers', {
      headers: { authorization: `Bearer ${session.access_token}` },
    });
    expect(list.status).toBe(200);
  });

  it('does not keep a development instance from seeding its demo data', async () => {
    // The operator exists, but no publisher account does yet (tests below add some).
    expect(await t.app.get(DemoSeeder).seedIfEmpty()).not.toBeNull();
  });

  it('is left alone when it exists already: its password does not change', async () => {
    const outcome = await t.app
      .get(OperatorAccounts)
      .ensureOperator(ADMIN.email, 'a different password');
    expect(outcome).toBe('exists');
    expect((await login(ADMIN.email, ADMIN.password)).status).toBe(200);
    await expectProblem(
      await login(ADMIN.email, 'a different password'),
      401,
      'invalid_credentials',
    );
  });

  it('is never made by promoting a publisher who registered the email first', async () => {
    const email = 'early-bird@adline.test';
    await t.http('/api/auth/register', json({ email, password: 'publisher password', name: 'E' }));
    expect(await t.app.get(OperatorAccounts).ensureOperator(email, 'operator password 2')).toBe(
      'taken_by_publisher',
    );
    const session = (await (await login(email, 'publisher password')).json()) as {
      publisher: { role: string };
    };
    expect(session.publisher.role).toBe('publisher');
  });

  it('npm run admin:create makes an operator on the configured database and says so', async () => {
    const made = await createAdmin(['Second.Ops@adline.test', 'second operator pw'], t.config);
    expect(made).toEqual({
      outcome: 'created',
      message: 'Created the operator account second.ops@adline.test.',
    });
    expect((await login('second.ops@adline.test', 'second operator pw')).status).toBe(200);
    const again = await createAdmin(['second.ops@adline.test', 'second operator pw'], t.config);
    expect(again.message).toBe(
      'An operator account second.ops@adline.test already exists; nothing changed.',
    );
  });

  it('npm run admin:create refuses a bad email, a short password, or none at all', async () => {
    const noAdmin = { ...t.config, adminEmail: null, adminPassword: null } as typeof t.config;
    await expect(createAdmin(['not-an-email', 'long enough pw'], noAdmin)).rejects.toThrow(
      /ADMIN_EMAIL/,
    );
    await expect(createAdmin(['x@adline.test', 'short'], noAdmin)).rejects.toThrow(
      /ADMIN_PASSWORD/,
    );
    await expect(createAdmin([], noAdmin)).rejects.toThrow(ConfigError);
  });
});

describe(`operator routes (${testDatabaseKind()})`, () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it.each([
    ['GET', '/api/admin/publishers', undefined],
    ['PATCH', '/api/admin/publishers/ID', { revenue_share: 1 }],
    ['PATCH', '/api/admin/models/MODEL', { status: 'deactivated' }],
  ])('answers 403 to a publisher calling %s %s', async (method, path, body) => {
    const me = await t.f.signedInPublisher();
    const response = await me.api(
      method,
      path.replace('ID', me.publisher.id).replace('MODEL', me.model.id),
      body,
    );
    await expectProblem(response, 403, 'forbidden');
    expect(await (await me.api('GET', '/api/publisher')).json()).toMatchObject({
      revenue_share: 0.7,
    });
    expect(await (await me.api('GET', `/api/models/${me.model.id}`)).json()).toMatchObject({
      status: 'active',
    });
  });

  it('lists every publisher page by page, oldest first', async () => {
    const admin = await t.f.signedInAdmin();
    for (let i = 0; i < 3; i++) await t.f.publisherWithKey();
    const first = (await (await admin.api('GET', '/api/admin/publishers?per_page=2')).json()) as {
      items: { id: string }[];
      total: number;
      page: number;
      per_page: number;
    };
    expect(first).toMatchObject({ page: 1, per_page: 2 });
    expect(first.items).toHaveLength(2);
    const seen: string[] = [];
    for (let page = 1; page <= Math.ceil(first.total / 2); page++) {
      const body = (await (
        await admin.api('GET', `/api/admin/publishers?page=${page}&per_page=2`)
      ).json()) as { items: { id: string }[]; total: number };
      expect(body.total).toBe(first.total);
      seen.push(...body.items.map((p) => p.id));
    }
    expect(new Set(seen).size).toBe(first.total);
    expect(seen).toContain(admin.publisher.id);
    expect(first.total).toBeGreaterThanOrEqual(4);
  });

  it.each([['per_page=101'], ['per_page=0'], ['page=0'], ['page=abc']])(
    'answers 400 to a page query %s',
    async (query) => {
      const admin = await t.f.signedInAdmin();
      await expectProblem(
        await admin.api('GET', `/api/admin/publishers?${query}`),
        400,
        'validation_failed',
      );
    },
  );

  it('suspending a publisher makes its keys answer 404 and its session 403 at once; reactivating restores both', async () => {
    const admin = await t.f.signedInAdmin();
    const publisher = await t.f.signedInPublisher();
    await t.f.campaign({ keywords: 'carabiner' });
    expect((await t.fetchAds(publisher.key, ask('carabiner'))).status).toBe(200);
    const path = `/api/admin/publishers/${publisher.publisher.id}`;

    const suspended = await admin.api('PATCH', path, { status: 'suspended' });
    expect(suspended.status).toBe(200);
    expect(await suspended.json()).toMatchObject({
      id: publisher.publisher.id,
      status: 'suspended',
    });
    await expectProblem(await t.fetchAds(publisher.key, ask('carabiner')), 404, 'model_inactive');
    await expectProblem(await publisher.api('GET', '/api/publisher'), 403, 'forbidden');

    expect((await admin.api('PATCH', path, { status: 'active' })).status).toBe(200);
    expect((await t.fetchAds(publisher.key, ask('carabiner'))).status).toBe(200);
    expect((await publisher.api('GET', '/api/publisher')).status).toBe(200);
  });

  it('a revenue-share change applies to the very next impression and its click', async () => {
    const admin = await t.f.signedInAdmin();
    const publisher = await t.f.signedInPublisher({ revenueShare: 0.7 });
    await t.f.campaign({ keywords: 'crampons', bid: '0.50' });
    // The key's credentials (with the old share) are now cached.
    expect((await t.fetchAds(publisher.key, ask('crampons'))).status).toBe(200);

    const changed = await admin.api('PATCH', `/api/admin/publishers/${publisher.publisher.id}`, {
      revenue_share: 0.5,
    });
    expect(await changed.json()).toMatchObject({ revenue_share: 0.5 });
    expect(await (await publisher.api('GET', '/api/publisher')).json()).toMatchObject({
      revenue_share: 0.5,
    });

    const link = await campaignLink(await t.fetchAds(publisher.key, ask('crampons')));
    expect((await followAsBrowser(link)).status).toBe(302);
    const shares = await t.dataSource
      .getRepository(Impression)
      .find({ where: { modelId: publisher.model.id }, order: { createdAt: 'ASC' } });
    expect(shares.map((i) => i.revenueSharePpm)).toEqual([700_000, 500_000]);
    const today = new Date().toISOString().slice(0, 10);
    const stats = (await (
      await publisher.api('GET', `/api/stats?from=${today}&to=${today}`)
    ).json()) as { totals: { clicks: number; earnings: number } };
    expect(stats.totals).toMatchObject({ clicks: 1, earnings: 0.25 });
  });

  it.each([
    ['above 1', 1.01],
    ['below 0', -0.1],
    ['with 7 decimals', 0.1234567],
    ['given as text', '0.5'],
  ])('refuses a revenue share %s (400) and keeps the old one', async (_label, share) => {
    const admin = await t.f.signedInAdmin();
    const { publisher } = await t.f.publisherWithKey();
    const path = `/api/admin/publishers/${publisher.id}`;
    const problem = await expectProblem(
      await admin.api('PATCH', path, { revenue_share: share }),
      400,
      'validation_failed',
    );
    expect(problem.errors?.map((e) => e.field)).toEqual(['revenue_share']);
    const list = (await (await admin.api('GET', '/api/admin/publishers?per_page=100')).json()) as {
      items: { id: string; revenue_share: number }[];
    };
    expect(list.items.find((p) => p.id === publisher.id)?.revenue_share).toBe(0.7);
  });

  it('accepts a revenue share of 0, 1 and one with 6 decimals', async () => {
    const admin = await t.f.signedInAdmin();
    const { publisher } = await t.f.publisherWithKey();
    for (const share of [0, 1, 0.123456]) {
      const response = await admin.api('PATCH', `/api/admin/publishers/${publisher.id}`, {
        revenue_share: share,
      });
      expect(await response.json()).toMatchObject({ revenue_share: share });
    }
  });

  it('refuses to let an operator suspend their own account (409)', async () => {
    const admin = await t.f.signedInAdmin();
    await expectProblem(
      await admin.api('PATCH', `/api/admin/publishers/${admin.publisher.id}`, {
        status: 'suspended',
      }),
      409,
      'conflict',
    );
    expect((await admin.api('GET', '/api/publisher')).status).toBe(200);
  });

  it("deactivates any publisher's model; its keys answer 404 and only an operator can reactivate it", async () => {
    const admin = await t.f.signedInAdmin();
    const owner = await t.f.signedInPublisher();
    await t.f.campaign({ keywords: 'ice axe' });
    const adminPath = `/api/admin/models/${owner.model.id}`;
    const ownerPath = `/api/models/${owner.model.id}`;

    const off = await admin.api('PATCH', adminPath, { status: 'deactivated' });
    expect(off.status).toBe(200);
    expect(await off.json()).toMatchObject({ status: 'deactivated', deactivated_by: 'operator' });
    await expectProblem(await t.fetchAds(owner.key, ask('ice axe')), 404, 'model_inactive');

    await expectProblem(
      await owner.api('PATCH', ownerPath, { status: 'active' }),
      403,
      'model_locked',
    );
    // Deactivating it "again" must not hand the model back to its owner.
    await owner.api('PATCH', ownerPath, { status: 'deactivated' });
    await expectProblem(
      await owner.api('PATCH', ownerPath, { status: 'active' }),
      403,
      'model_locked',
    );
    // Other fields stay the owner's to change.
    expect((await owner.api('PATCH', ownerPath, { name: 'Renamed' })).status).toBe(200);

    expect(await (await admin.api('PATCH', adminPath, { status: 'active' })).json()).toMatchObject({
      status: 'active',
      deactivated_by: null,
    });
    expect((await t.fetchAds(owner.key, ask('ice axe'))).status).toBe(200);
  });

  it('answers 404 for an unknown publisher or model, and 400 for a missing model status', async () => {
    const admin = await t.f.signedInAdmin();
    await expectProblem(
      await admin.api('PATCH', '/api/admin/publishers/nobody', { status: 'active' }),
      404,
      'publisher_not_found',
    );
    await expectProblem(
      await admin.api('PATCH', '/api/admin/models/nothing', { status: 'active' }),
      404,
      'model_not_found',
    );
    const { model } = await t.f.publisherWithKey();
    await expectProblem(
      await admin.api('PATCH', `/api/admin/models/${model.id}`, {}),
      400,
      'validation_failed',
    );
  });
});
