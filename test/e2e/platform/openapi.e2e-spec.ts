import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateOpenApi } from '../../../scripts/generate-openapi';
import { startTestApp, TestApp } from '@test/support/test-app';
import { ROOT } from '@test/support/paths';

type Operation = { responses: Record<string, unknown>; security?: unknown[]; operationId: string };

describe('OpenAPI document', () => {
  it('the committed openapi.json is what the code generates (run `npm run openapi`)', async () => {
    const committed = readFileSync(join(ROOT, 'openapi.json'), 'utf8');
    expect(committed).toBe(await generateOpenApi());
  });

  it('documents fetch-ads with its key, success body and every problem response', () => {
    const document = JSON.parse(readFileSync(join(ROOT, 'openapi.json'), 'utf8')) as {
      paths: Record<string, Record<string, Operation>>;
      components: { securitySchemes: Record<string, { in: string; name: string }> };
    };
    const fetchAds = document.paths['/api/fetch-ads'].post;
    expect(fetchAds.operationId).toBe('fetchAds');
    expect(Object.keys(fetchAds.responses).sort()).toEqual([
      '200',
      '400',
      '404',
      '413',
      '415',
      '429',
      '500',
      '503',
    ]);
    expect(fetchAds.security).toEqual([{ 'service-api-key': [] }]);
    expect(document.components.securitySchemes['service-api-key']).toMatchObject({
      in: 'header',
      name: 'service-api-key',
    });
    const click = document.paths['/api/campaign_click'].get;
    expect(Object.keys(click.responses).sort()).toEqual(['302', '400', '404', '429', '500', '503']);
  });

  describe('served by the app', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp();
    });
    afterAll(() => t.close());

    it('serves Swagger UI at /docs and the document at /docs/openapi.json', async () => {
      const ui = await t.http('/docs');
      expect(ui.status).toBe(200);
      expect(await ui.text()).toContain('swagger');
      const json = (await (await t.http('/docs/openapi.json')).json()) as {
        paths: Record<string, unknown>;
      };
      expect(Object.keys(json.paths)).toEqual(
        expect.arrayContaining(['/api/fetch-ads', '/api/campaign_click']),
      );
    });
  });
});
