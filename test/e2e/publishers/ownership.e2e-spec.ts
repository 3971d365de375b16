import { ApiKey } from '@/publishers/entities/api-key.entity';
import { AiModel } from '@/publishers/entities/ai-model.entity';
import type { ProblemCode } from '@/common/problem';
import type { SignedInPublisher } from '@test/factories';
import { ask } from '@test/support/ads';
import { expectProblem } from '@test/support/problem';
import { startTestApp, TestApp } from '@test/support/test-app';
import { testDatabaseKind } from '@test/support/test-database';

/** A route, called as `me` on the ids of `other`'s model and key, and the 404 code it answers. */
type Route = [
  string,
  string,
  (ids: { model: string; key: string; myModel: string }) => string,
  unknown,
  ProblemCode,
];

const ROUTES: Route[] = [
  ['read a model', 'GET', (i) => `/api/models/${i.model}`, undefined, 'model_not_found'],
  [
    'change a model',
    'PATCH',
    (i) => `/api/models/${i.model}`,
    { name: 'Mine now' },
    'model_not_found',
  ],
  [
    'deactivate a model',
    'PATCH',
    (i) => `/api/models/${i.model}`,
    { status: 'deactivated' },
    'model_not_found',
  ],
  [
    'list the keys of a model',
    'GET',
    (i) => `/api/models/${i.model}/keys`,
    undefined,
    'model_not_found',
  ],
  [
    'create a key for a model',
    'POST',
    (i) => `/api/models/${i.model}/keys`,
    { label: 'stolen' },
    'model_not_found',
  ],
  [
    'revoke a key',
    'DELETE',
    (i) => `/api/models/${i.model}/keys/${i.key}`,
    undefined,
    'model_not_found',
  ],
  [
    'revoke a key through one of my models',
    'DELETE',
    (i) => `/api/models/${i.myModel}/keys/${i.key}`,
    undefined,
    'api_key_not_found',
  ],
  [
    'read the statistics of a model',
    'GET',
    (i) => `/api/stats?from=2026-01-01&to=2026-01-31&model_id=${i.model}`,
    undefined,
    'model_not_found',
  ],
];

describe(`a publisher reaches only its own models, keys and stats (${testDatabaseKind()})`, () => {
  let t: TestApp;
  let me: SignedInPublisher;
  let other: SignedInPublisher;

  beforeAll(async () => {
    t = await startTestApp();
    me = await t.f.signedInPublisher();
    other = await t.f.signedInPublisher();
    await t.f.campaign({ keywords: 'binoculars' });
  });
  afterAll(() => t.close());

  it.each(ROUTES)(
    'answers 404 when I %s of another publisher',
    async (_label, method, path, body, code) => {
      const response = await me.api(
        method,
        path({ model: other.model.id, key: other.keyId, myModel: me.model.id }),
        body,
      );
      await expectProblem(response, 404, code);
    },
  );

  it('leaves the other publisher’s model and keys untouched by all those attempts', async () => {
    for (const [, method, path, body] of ROUTES) {
      await me.api(
        method,
        path({ model: other.model.id, key: other.keyId, myModel: me.model.id }),
        body,
      );
    }
    const model = await t.dataSource.getRepository(AiModel).findOneByOrFail({ id: other.model.id });
    expect(model).toMatchObject({ name: other.model.name, status: 'active' });
    const keys = await t.dataSource.getRepository(ApiKey).findBy({ modelId: other.model.id });
    expect(keys.map((k) => k.status)).toEqual(['active']);
    expect((await t.fetchAds(other.key, ask('binoculars'))).status).toBe(200);
  });

  it('lists only my own models', async () => {
    const list = (await (await me.api('GET', '/api/models')).json()) as { id: string }[];
    expect(list.map((m) => m.id)).toEqual([me.model.id]);
  });

  it('shows only my own activity in statistics without model_id', async () => {
    const day = '2026-01-15';
    await t.f.rollup(
      { day, modelId: me.model.id, campaignId: 'c', publisherId: me.publisher.id, impressions: 2 },
      {
        day,
        modelId: other.model.id,
        campaignId: 'c',
        publisherId: other.publisher.id,
        impressions: 9,
      },
    );
    const body = (await (await me.api('GET', `/api/stats?from=${day}&to=${day}`)).json()) as {
      rows: { model_id: string }[];
      totals: { impressions: number };
    };
    expect(body.rows.map((r) => r.model_id)).toEqual([me.model.id]);
    expect(body.totals.impressions).toBe(2);
  });

  it.each([
    ['GET', '/api/publisher'],
    ['GET', '/api/models'],
    ['POST', '/api/models'],
    ['GET', '/api/models/x'],
    ['PATCH', '/api/models/x'],
    ['GET', '/api/models/x/keys'],
    ['POST', '/api/models/x/keys'],
    ['DELETE', '/api/models/x/keys/y'],
    ['GET', '/api/stats?from=2026-01-01&to=2026-01-02'],
    ['GET', '/api/admin/publishers'],
    ['PATCH', '/api/admin/publishers/x'],
    ['PATCH', '/api/admin/models/x'],
  ])('answers 401 to %s %s without a session', async (method, path) => {
    await expectProblem(await t.http(path, { method }), 401, 'unauthorized');
  });
});
