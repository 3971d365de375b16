import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '@test/support/paths';

interface Operation {
  operationId: string;
  summary?: string;
  security?: Record<string, unknown>[];
  responses: Record<string, { content?: Record<string, unknown> }>;
  requestBody?: unknown;
}

const document = JSON.parse(readFileSync(join(ROOT, 'openapi.json'), 'utf8')) as {
  paths: Record<string, Record<string, Operation>>;
};

const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
);

describe('OpenAPI document of the publisher management API', () => {
  it.each([
    ['get', '/api/publisher', 'getPublisher', '200'],
    ['get', '/api/models', 'listModels', '200'],
    ['post', '/api/models', 'createModel', '201'],
    ['get', '/api/models/{id}', 'getModel', '200'],
    ['patch', '/api/models/{id}', 'updateModel', '200'],
    ['get', '/api/models/{id}/keys', 'listApiKeys', '200'],
    ['post', '/api/models/{id}/keys', 'createApiKey', '201'],
    ['delete', '/api/models/{id}/keys/{keyId}', 'revokeApiKey', '204'],
    ['get', '/api/stats', 'getUsageStats', '200'],
    ['get', '/api/admin/publishers', 'listPublishers', '200'],
    ['patch', '/api/admin/publishers/{id}', 'updatePublisher', '200'],
    ['patch', '/api/admin/models/{id}', 'updateModelStatus', '200'],
  ])(
    'documents %s %s as %s with a summary, both session schemes and its problem responses',
    (method, path, operationId, success) => {
      const operation = document.paths[path]?.[method];
      expect(operation).toBeDefined();
      expect(operation.operationId).toBe(operationId);
      expect(operation.summary).toEqual(expect.any(String));
      expect(operation.security).toEqual([{ bearer: [] }, { 'session-cookie': [] }]);
      expect(Object.keys(operation.responses)).toEqual(
        expect.arrayContaining([success, '401', '403', '500']),
      );
      // The management API has no rate limit, so the document promises no 429 there.
      expect(operation.responses).not.toHaveProperty('429');
      for (const status of ['401', '403', '500']) {
        expect(operation.responses[status].content).toHaveProperty(['application/problem+json']);
      }
    },
  );

  it('names every operation of the app uniquely (operation ids are method names)', () => {
    const ids = operations.map((o) => o.operation.operationId);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it('documents 404 on every route that takes an id, and 409 where a limit or rule can refuse', () => {
    for (const { path, method, operation } of operations) {
      if (!/^\/api\/(models|admin\/(publishers|models))\/\{id\}/.test(path)) continue;
      expect([method, path, Object.keys(operation.responses)]).toEqual([
        method,
        path,
        expect.arrayContaining(['404']),
      ]);
    }
    expect(document.paths['/api/models/{id}/keys'].post.responses).toHaveProperty('409');
    expect(document.paths['/api/admin/publishers/{id}'].patch.responses).toHaveProperty('409');
  });
});
