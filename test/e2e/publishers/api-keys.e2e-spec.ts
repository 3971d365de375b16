import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from '@/database/data-source-options';
import { ENTITIES } from '@/entities';
import { ApiKey } from '@/publishers/entities/api-key.entity';
import { KeyUsageTracker } from '@/publishers/key-usage-tracker.service';
import { ask } from '@test/support/ads';
import { expectProblem } from '@test/support/problem';
import { startTestApp, TestApp } from '@test/support/test-app';
import { testDatabaseKind } from '@test/support/test-database';

const KEY_FIELDS = ['created_at', 'id', 'kind', 'label', 'last_used_at', 'prefix', 'status'];

interface KeyBody {
  id: string;
  key?: string;
  prefix: string;
  label: string | null;
  status: string;
  kind: string;
  last_used_at: string | null;
}

describe(`API keys of a model (${testDatabaseKind()})`, () => {
  let t: TestApp;
  const keyRow = (id: string) => t.dataSource.getRepository(ApiKey).findOneByOrFail({ id });

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('creates a key (201) that serves at once; its secret appears in that response only', async () => {
    const me = await t.f.signedInPublisher();
    await t.f.campaign({ keywords: 'lantern' });
    const created = await me.api('POST', `/api/models/${me.model.id}/keys`, { label: 'staging' });
    expect(created.status).toBe(201);
    const key = (await created.json()) as KeyBody;
    expect(Object.keys(key).sort()).toEqual([...KEY_FIELDS, 'key'].sort());
    expect(key).toMatchObject({
      label: 'staging',
      status: 'active',
      kind: 'live',
      last_used_at: null,
    });
    expect(key.key?.startsWith(key.prefix)).toBe(true);
    expect((await t.fetchAds(key.key as string, ask('lantern'))).status).toBe(200);

    const listed = await me.api('GET', `/api/models/${me.model.id}/keys`);
    expect(listed.status).toBe(200);
    const text = await listed.text();
    expect(text).not.toContain(key.key);
    const items = JSON.parse(text) as KeyBody[];
    expect(items.map((k) => k.id)).toEqual([me.keyId, key.id]);
    for (const item of items) expect(Object.keys(item).sort()).toEqual(KEY_FIELDS);
  });

  it('accepts a key without a label, and refuses a label over 100 characters', async () => {
    const me = await t.f.signedInPublisher();
    const path = `/api/models/${me.model.id}/keys`;
    expect(await (await me.api('POST', path)).json()).toMatchObject({ label: null });
    const problem = await expectProblem(
      await me.api('POST', path, { label: 'l'.repeat(101) }),
      400,
      'validation_failed',
    );
    expect(problem.errors?.map((e) => e.field)).toEqual(['label']);
  });

  it('makes a live key without a body, and a test key (adl_test_…) with "kind": "test"; the list shows each kind', async () => {
    const me = await t.f.signedInPublisher();
    await t.f.campaign({ keywords: 'compass' });
    const path = `/api/models/${me.model.id}/keys`;

    const live = (await (await me.api('POST', path)).json()) as KeyBody;
    const test = (await (
      await me.api('POST', path, { label: 'sandbox', kind: 'test' })
    ).json()) as KeyBody;
    const explicitLive = (await (await me.api('POST', path, { kind: 'live' })).json()) as KeyBody;

    expect(live).toMatchObject({ kind: 'live', key: expect.stringMatching(/^adl_live_/) });
    expect(explicitLive).toMatchObject({ kind: 'live', key: expect.stringMatching(/^adl_live_/) });
    expect(test).toMatchObject({
      kind: 'test',
      label: 'sandbox',
      prefix: expect.stringMatching(/^adl_test_.{3}$/),
      key: expect.stringMatching(/^adl_test_[A-Za-z0-9_-]{43}$/),
    });
    expect((await keyRow(test.id)).kind).toBe('test');
    // A test key serves, and its use shows like a live key's.
    expect((await t.fetchAds(test.key as string, ask('compass'))).status).toBe(200);
    const listed = (await (await me.api('GET', path)).json()) as KeyBody[];
    expect(listed.map((k) => [k.id, k.kind])).toEqual([
      [me.keyId, 'live'],
      [live.id, 'live'],
      [test.id, 'test'],
      [explicitLive.id, 'live'],
    ]);
    expect(listed.find((k) => k.id === test.id)?.last_used_at).not.toBeNull();
  });

  it.each([
    ['an unknown kind', 'sandbox'],
    ['an upper-case kind', 'TEST'],
    ['null', null],
  ])('refuses %s with 400 naming the field kind', async (_label, kind) => {
    const me = await t.f.signedInPublisher();
    const problem = await expectProblem(
      await me.api('POST', `/api/models/${me.model.id}/keys`, { kind }),
      400,
      'validation_failed',
    );
    expect(problem.errors?.map((e) => e.field)).toEqual(['kind']);
  });

  it('revokes a key at once (204) while the other key of the model keeps serving', async () => {
    const me = await t.f.signedInPublisher();
    await t.f.campaign({ keywords: 'headlamp' });
    const second = (await (
      await me.api('POST', `/api/models/${me.model.id}/keys`)
    ).json()) as KeyBody;
    expect((await t.fetchAds(me.key, ask('headlamp'))).status).toBe(200);

    const revoked = await me.api('DELETE', `/api/models/${me.model.id}/keys/${me.keyId}`);
    expect(revoked.status).toBe(204);
    expect(await revoked.text()).toBe('');

    await expectProblem(await t.fetchAds(me.key, ask('headlamp')), 404, 'invalid_api_key');
    expect((await t.fetchAds(second.key as string, ask('headlamp'))).status).toBe(200);
    const items = (await (
      await me.api('GET', `/api/models/${me.model.id}/keys`)
    ).json()) as KeyBody[];
    expect(items.map((k) => [k.id, k.status])).toEqual([
      [me.keyId, 'revoked'],
      [second.id, 'active'],
    ]);
    // Revoking again changes nothing and is no error.
    expect((await me.api('DELETE', `/api/models/${me.model.id}/keys/${me.keyId}`)).status).toBe(
      204,
    );
  });

  it('answers 404 for an unknown key id, or a key of another model of the same publisher', async () => {
    const me = await t.f.signedInPublisher();
    const other = (await (await me.api('POST', '/api/models', { name: 'Other model' })).json()) as {
      id: string;
    };
    await expectProblem(
      await me.api('DELETE', `/api/models/${me.model.id}/keys/no-such-key`),
      404,
      'api_key_not_found',
    );
    await expectProblem(
      await me.api('DELETE', `/api/models/${other.id}/keys/${me.keyId}`),
      404,
      'api_key_not_found',
    );
    expect((await keyRow(me.keyId)).status).toBe('active');
  });

  it('refuses an 11th active key with 409, and issues one again after a revoke', async () => {
    const me = await t.f.signedInPublisher();
    const path = `/api/models/${me.model.id}/keys`;
    for (let i = 2; i <= 10; i++) expect((await me.api('POST', path)).status).toBe(201);
    await expectProblem(await me.api('POST', path), 409, 'key_limit_reached');
    expect((await me.api('DELETE', `${path}/${me.keyId}`)).status).toBe(204);
    expect((await me.api('POST', path)).status).toBe(201);
  });

  it('never lets concurrent requests take a model past 10 active keys', async () => {
    const me = await t.f.signedInPublisher();
    const path = `/api/models/${me.model.id}/keys`;
    const statuses = await Promise.all(
      Array.from({ length: 14 }, () => me.api('POST', path).then((r) => r.status)),
    );
    expect(statuses.filter((s) => s === 201)).toHaveLength(9);
    expect(statuses.filter((s) => s === 409)).toHaveLength(5);
    const active = await t.dataSource
      .getRepository(ApiKey)
      .countBy({ modelId: me.model.id, status: 'active' });
    expect(active).toBe(10);
  });

  it('shows when a key was last used without writing the database per request; the flush writes it', async () => {
    const me = await t.f.signedInPublisher();
    await t.f.campaign({ keywords: 'stove' });
    const before = Date.now();
    expect((await t.fetchAds(me.key, ask('stove'))).status).toBe(200);
    expect((await t.fetchAds(me.key, ask('stove'))).status).toBe(200);

    expect((await keyRow(me.keyId)).lastUsedAt).toBeNull();
    const [listed] = (await (
      await me.api('GET', `/api/models/${me.model.id}/keys`)
    ).json()) as KeyBody[];
    expect(Date.parse(listed.last_used_at as string)).toBeGreaterThanOrEqual(before - 1000);

    await t.app.get(KeyUsageTracker).flush();
    const written = (await keyRow(me.keyId)).lastUsedAt;
    expect(written?.toISOString()).toBe(listed.last_used_at);
  });

  it('never moves last_used_at back when an older use is flushed after a newer one', async () => {
    const me = await t.f.signedInPublisher();
    const tracker = t.app.get(KeyUsageTracker);
    tracker.recordUse(me.keyId, new Date('2026-03-02T10:00:00.000Z'));
    await tracker.flush();
    tracker.recordUse(me.keyId, new Date('2026-03-01T10:00:00.000Z'));
    await tracker.flush();
    expect((await keyRow(me.keyId)).lastUsedAt?.toISOString()).toBe('2026-03-02T10:00:00.000Z');
  });
});

describe(`API key usage at shutdown (${testDatabaseKind()})`, () => {
  it('writes the uses it still remembers when the app shuts down', async () => {
    const t = await startTestApp();
    const { key, keyId } = await t.f.publisherWithKey();
    await t.f.campaign({ keywords: 'tarp' });
    expect((await t.fetchAds(key, ask('tarp'))).status).toBe(200);

    await t.app.close();

    const reader = new DataSource(buildDataSourceOptions(t.config.database, ENTITIES));
    await reader.initialize();
    try {
      const row = await reader.getRepository(ApiKey).findOneByOrFail({ id: keyId });
      expect(row.lastUsedAt).not.toBeNull();
    } finally {
      await reader.destroy();
      await t.close();
    }
  });
});
