import { BEARER_SCHEME } from '@/common/authenticated.decorator';
import { expectProblem } from '@test/support/problem';
import { startTestApp, TestApp } from '@test/support/test-app';

interface Operation {
  operationId: string;
  security?: Record<string, unknown>[];
}

/**
 * The session guard is global and acts on routes marked @Authenticated(); were it ever left
 * out of the app, every such route would be served to anyone. This asks the running app's
 * own OpenAPI document which routes need a session and calls each of them without one.
 */
describe('routes that need a session', () => {
  let t: TestApp;
  let sessionRoutes: { method: string; path: string; operationId: string }[];

  beforeAll(async () => {
    t = await startTestApp();
    const document = (await (await t.http('/docs/openapi.json')).json()) as {
      paths: Record<string, Record<string, Operation>>;
    };
    sessionRoutes = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([, operation]) => operation.security?.some((scheme) => BEARER_SCHEME in scheme))
        .map(([method, operation]) => ({
          method: method.toUpperCase(),
          // Any id will do: the guard answers before the route looks anything up.
          path: path.replace(/\{[^}]+\}/g, '01JAAAAAAAAAAAAAAAAAAAAAAA'),
          operationId: operation.operationId,
        })),
    );
  });

  afterAll(() => t.close());

  it('are all the management routes, operators’ included', () => {
    const ids = sessionRoutes.map((route) => route.operationId);
    expect(ids).toEqual(
      expect.arrayContaining([
        'logout',
        'getPublisher',
        'createModel',
        'revokeApiKey',
        'getUsageStats',
        'listPublishers',
        'createCampaign',
        'listAdvertisers',
      ]),
    );
    expect(ids).not.toEqual(expect.arrayContaining(['fetchAds']));
    expect(sessionRoutes.length).toBeGreaterThanOrEqual(25);
  });

  it('answer 401 unauthorized to a request without a session, whatever it sends', async () => {
    for (const route of sessionRoutes) {
      const response = await t.http(route.path, {
        method: route.method,
        ...(['GET', 'DELETE'].includes(route.method)
          ? {}
          : { headers: { 'content-type': 'application/json' }, body: '{}' }),
      });
      expect({ route: `${route.method} ${route.path}`, status: response.status }).toEqual({
        route: `${route.method} ${route.path}`,
        status: 401,
      });
      await expectProblem(response, 401, 'unauthorized');
    }
  });

  it('answer 401 to a bearer token that is no session', async () => {
    for (const route of sessionRoutes.filter((r) => r.method === 'GET')) {
      const response = await t.http(route.path, {
        headers: { authorization: 'Bearer not-a-session-token' },
      });
      await expectProblem(response, 401, 'unauthorized');
    }
  });
});
