import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '@test/support/paths';

interface Operation {
  operationId: string;
  summary?: string;
  security?: Record<string, unknown>[];
  responses: Record<string, { content?: Record<string, unknown> }>;
}

const document = JSON.parse(readFileSync(join(ROOT, 'openapi.json'), 'utf8')) as {
  paths: Record<string, Record<string, Operation>>;
};

describe('OpenAPI document of the operator API (campaigns, advertisers, reports)', () => {
  it.each([
    ['get', '/api/admin/advertisers', 'listAdvertisers', '200', []],
    ['post', '/api/admin/advertisers', 'createAdvertiser', '201', ['400']],
    ['get', '/api/admin/advertisers/{id}', 'getAdvertiser', '200', ['404']],
    ['patch', '/api/admin/advertisers/{id}', 'updateAdvertiser', '200', ['400', '404']],
    ['get', '/api/admin/campaigns', 'listCampaigns', '200', ['400']],
    ['post', '/api/admin/campaigns', 'createCampaign', '201', ['400']],
    ['get', '/api/admin/campaigns/{id}', 'getCampaign', '200', ['404']],
    ['patch', '/api/admin/campaigns/{id}', 'updateCampaign', '200', ['400', '404', '409']],
    ['get', '/api/admin/campaigns/{id}/stats', 'getCampaignStats', '200', ['400', '404']],
    ['get', '/api/admin/campaigns/{id}/audit', 'listCampaignAudit', '200', ['404']],
    ['get', '/api/admin/reports/publishers', 'getPublisherReport', '200', ['400']],
    ['get', '/api/admin/reports/balances', 'getPublisherBalances', '200', ['400']],
    ['get', '/api/admin/publishers/{id}/models', 'listPublisherModels', '200', ['404']],
    ['get', '/api/admin/publishers/{id}/audit', 'listPublisherAudit', '200', ['404']],
    ['patch', '/api/admin/publishers/{id}', 'updatePublisher', '200', ['400', '404', '409']],
  ])(
    'documents %s %s as %s with a summary, both session schemes and its problem responses',
    (method, path, operationId, success, problems) => {
      const operation = document.paths[path]?.[method];
      expect(operation).toBeDefined();
      expect(operation.operationId).toBe(operationId);
      expect(operation.summary).toEqual(expect.any(String));
      expect(operation.security).toEqual([{ bearer: [] }, { 'session-cookie': [] }]);
      const statuses = [...problems, '401', '403', '500'];
      // The operator API has no rate limit, so the document promises no 429 there.
      expect(operation.responses).not.toHaveProperty('429');
      expect(Object.keys(operation.responses)).toEqual(
        expect.arrayContaining([success, ...statuses]),
      );
      for (const status of statuses) {
        expect(operation.responses[status].content).toHaveProperty(['application/problem+json']);
      }
    },
  );

  it('documents both forms of the reports: JSON and CSV', () => {
    for (const path of [
      '/api/admin/campaigns/{id}/stats',
      '/api/admin/reports/publishers',
      '/api/admin/reports/balances',
    ]) {
      expect(Object.keys(document.paths[path].get.responses['200'].content ?? {}).sort()).toEqual([
        'application/json',
        'text/csv',
      ]);
    }
  });
});
