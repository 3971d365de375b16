import { expectProblem } from '@test/support/problem';
import { ask } from '@test/support/ads';
import { startTestApp, TestApp } from '@test/support/test-app';
import { testDatabaseKind } from '@test/support/test-database';

const MODEL_FIELDS = [
  'controls',
  'created_at',
  'deactivated_by',
  'description',
  'id',
  'link',
  'name',
  'status',
];

describe(`the signed-in publisher and its AI models (${testDatabaseKind()})`, () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('shows the signed-in publisher with its revenue share as a fraction, and no secret', async () => {
    const me = await t.f.signedInPublisher({ revenueShare: 0.65 });
    const response = await me.api('GET', '/api/publisher');
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toEqual({
      id: me.publisher.id,
      email: me.publisher.email,
      name: me.publisher.name,
      role: 'publisher',
      status: 'active',
      revenue_share: 0.65,
      // Made by a factory, which sends no verification mail.
      email_verified: false,
      created_at: me.publisher.createdAt.toISOString(),
    });
  });

  it('answers 401 to GET /api/publisher without a session', async () => {
    await expectProblem(await t.http('/api/publisher'), 401, 'unauthorized');
  });

  it('registers a model (201) with exactly the documented fields, then reads and lists it', async () => {
    const me = await t.f.signedInPublisher();
    const created = await me.api('POST', '/api/models', {
      name: '  Trail Guide  ',
      description: 'Answers hikers.',
      link: 'https://trail.example/guide',
    });
    expect(created.status).toBe(201);
    const { api_key: firstKey, ...model } = (await created.json()) as Record<string, unknown>;
    expect(Object.keys(model).sort()).toEqual(MODEL_FIELDS);
    expect(firstKey).toMatchObject({ status: 'active', key: expect.stringMatching(/^adl_live_/) });
    expect(model).toMatchObject({
      name: 'Trail Guide',
      description: 'Answers hikers.',
      link: 'https://trail.example/guide',
      status: 'active',
      deactivated_by: null,
    });
    const read = await me.api('GET', `/api/models/${String(model.id)}`);
    expect(read.status).toBe(200);
    expect(await read.json()).toEqual(model);
    const list = (await (await me.api('GET', '/api/models')).json()) as { id: string }[];
    expect(list.map((m) => m.id)).toEqual([me.model.id, model.id]);
  });

  it('issues a working API key with a newly registered model, shown once', async () => {
    const me = await t.f.signedInPublisher();
    await t.f.campaign({ keywords: 'binoculars' });
    const created = (await (await me.api('POST', '/api/models', { name: 'Birder' })).json()) as {
      id: string;
      api_key: { id: string; key: string };
    };
    expect((await t.fetchAds(created.api_key.key, ask('binoculars'))).status).toBe(200);
    const keys = (await (await me.api('GET', `/api/models/${created.id}/keys`)).json()) as object[];
    expect(keys).toHaveLength(1);
    expect(keys[0]).not.toHaveProperty('key');
  });

  it('accepts a model with only a name, and the longest allowed fields', async () => {
    const me = await t.f.signedInPublisher();
    expect((await me.api('POST', '/api/models', { name: 'N' })).status).toBe(201);
    const longest = await me.api('POST', '/api/models', {
      name: 'n'.repeat(100),
      description: 'd'.repeat(1000),
      link: `http://site.example/${'p'.repeat(2048 - 'http://site.example/'.length)}`,
    });
    expect(longest.status).toBe(201);
  });

  it.each([
    ['a missing name', {}, 'name'],
    ['an empty name', { name: '' }, 'name'],
    ['a blank name', { name: '   ' }, 'name'],
    ['a name of 101 characters', { name: 'n'.repeat(101) }, 'name'],
    ['a name that is not text', { name: 42 }, 'name'],
    [
      'a description of 1001 characters',
      { name: 'N', description: 'd'.repeat(1001) },
      'description',
    ],
    ['a link that is not a URL', { name: 'N', link: 'my site' }, 'link'],
    ['an ftp link', { name: 'N', link: 'ftp://files.example/model' }, 'link'],
    ['a javascript: link', { name: 'N', link: 'javascript:alert(1)' }, 'link'],
    ['a link with a password', { name: 'N', link: 'https://user:pw@site.example/' }, 'link'],
    [
      'a link over 2048 characters',
      { name: 'N', link: `https://site.example/${'p'.repeat(2040)}` },
      'link',
    ],
  ])('answers 400 naming the field for %s', async (_label, body, field) => {
    const me = await t.f.signedInPublisher();
    const problem = await expectProblem(
      await me.api('POST', '/api/models', body),
      400,
      'validation_failed',
    );
    expect(problem.errors?.map((e) => e.field)).toEqual([field]);
    const list = (await (await me.api('GET', '/api/models')).json()) as unknown[];
    expect(list).toHaveLength(1);
  });

  it('changes name, description and link, and clears description and link with null', async () => {
    const me = await t.f.signedInPublisher();
    const path = `/api/models/${me.model.id}`;
    const changed = await me.api('PATCH', path, {
      name: 'Renamed',
      description: 'Now with a description.',
      link: 'https://renamed.example',
    });
    expect(changed.status).toBe(200);
    expect(await changed.json()).toMatchObject({
      name: 'Renamed',
      description: 'Now with a description.',
      link: 'https://renamed.example',
    });
    const cleared = await me.api('PATCH', path, { description: null, link: null });
    expect(await cleared.json()).toMatchObject({ name: 'Renamed', description: null, link: null });
    expect(await (await me.api('GET', path)).json()).toMatchObject({ description: null });
  });

  it.each([
    ['a null name', { name: null }, 'name'],
    ['a blank name', { name: ' ' }, 'name'],
    ['an unknown status', { status: 'paused' }, 'status'],
    ['a link that is not http(s)', { link: 'mailto:me@site.example' }, 'link'],
  ])(
    'refuses a change with %s (400) and keeps the model as it was',
    async (_label, body, field) => {
      const me = await t.f.signedInPublisher();
      const path = `/api/models/${me.model.id}`;
      const problem = await expectProblem(
        await me.api('PATCH', path, body),
        400,
        'validation_failed',
      );
      expect(problem.errors?.map((e) => e.field)).toEqual([field]);
      expect(await (await me.api('GET', path)).json()).toMatchObject({
        name: me.model.name,
        status: 'active',
      });
    },
  );

  it('deactivating a model makes its keys answer 404 model_inactive at once; reactivating restores them', async () => {
    const me = await t.f.signedInPublisher();
    await t.f.campaign({ keywords: 'kayak' });
    const path = `/api/models/${me.model.id}`;
    expect((await t.fetchAds(me.key, ask('kayak'))).status).toBe(200);

    const off = await me.api('PATCH', path, { status: 'deactivated' });
    expect(await off.json()).toMatchObject({ status: 'deactivated', deactivated_by: 'publisher' });
    await expectProblem(await t.fetchAds(me.key, ask('kayak')), 404, 'model_inactive');

    const on = await me.api('PATCH', path, { status: 'active' });
    expect(await on.json()).toMatchObject({ status: 'active', deactivated_by: null });
    expect((await t.fetchAds(me.key, ask('kayak'))).status).toBe(200);
  });
});

describe(`model changes from the dashboard's cookie (${testDatabaseKind()})`, () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('accepts a change from its own origin and refuses one from a foreign origin (403)', async () => {
    const me = await t.f.signedInPublisher();
    const patch = (origin: string, name: string) =>
      t.http(`/api/models/${me.model.id}`, {
        method: 'PATCH',
        headers: {
          cookie: `adline_session=${me.token}`,
          origin,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ name }),
      });
    expect((await patch(t.baseUrl, 'Same origin')).status).toBe(200);
    await expectProblem(await patch('https://evil.example', 'Forged'), 403, 'forbidden');
    expect(await (await me.api('GET', `/api/models/${me.model.id}`)).json()).toMatchObject({
      name: 'Same origin',
    });
  });
});
