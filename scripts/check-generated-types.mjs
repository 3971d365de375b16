// Types a stranger generates from openapi.json must accept the calls the docs show. Runs
// openapi-typescript with its default options, as `npx openapi-typescript openapi.json` does
// in the stranger's own folder (no redocly.yaml of ours, `defaultNonNullable` on), then
// type-checks the documented request bodies, with only the fields the docs send, against
// its `paths`. A request field with a `default` in a component schema is what breaks it:
// openapi-typescript makes such a field required. Run by .ci/run:
//   node scripts/check-generated-types.mjs
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const openapiTypescript = join(root, 'node_modules/openapi-typescript/bin/cli.js');
const tsc = join(root, 'node_modules/typescript/bin/tsc');

/** The calls, each as the docs send it. */
const CALLS = `import type { paths } from './schema';

type Body<Operation> = Operation extends { requestBody?: { content: { 'application/json': infer B } } }
  ? B
  : never;

// README.md's curl and Python snippets (and the dashboard's), fetch-ads with what they send.
export const fetchAds: Body<paths['/api/fetch-ads']['post']> = {
  conversation: 'Which GPU should I rent to train my model?',
  context_keywords: 'gpu, machine learning',
};

// A test key, as openapi.json's description and docs/api.md make one; a label alone; no body.
export const testKey: Body<paths['/api/models/{id}/keys']['post']> = { kind: 'test' };
export const labelledKey: Body<paths['/api/models/{id}/keys']['post']> = { label: 'backend' };
export const emptyKeyBody: Body<paths['/api/models/{id}/keys']['post']> = {};

// clients/typescript/README.md's campaign (no status: active by default).
export const campaign: Body<paths['/api/admin/campaigns']['post']> = {
  advertiser_id: '019a8a3e-0000-7cc1-9d0e-3f2a1b4c5d6e',
  name: 'Boots',
  text: 'Waterproof boots.',
  target_url: 'https://shop.example/boots',
  keywords: ['hiking boots'],
  bid_per_click: 0.35,
};

// docs/api.md's publisher controls (blocked_advertisers left out: it takes its default).
export const controls: Body<paths['/api/models/{id}/controls']['put']> = {
  blocked_categories: ['386'],
  blocked_keywords: ['casino'],
  relevance_floor: 0.3,
  frequency_cap: { max_ads: 3, per_minutes: 60 },
};
`;

const dir = mkdtempSync(join(tmpdir(), 'adline-generated-types-'));
try {
  copyFileSync(join(root, 'openapi.json'), join(dir, 'openapi.json'));
  execFileSync(process.execPath, [openapiTypescript, 'openapi.json', '-o', 'schema.ts'], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  writeFileSync(join(dir, 'calls.ts'), CALLS);
  try {
    execFileSync(
      process.execPath,
      [tsc, '--noEmit', '--strict', '--target', 'es2022', '--module', 'nodenext', 'calls.ts'],
      { cwd: dir, encoding: 'utf8' },
    );
    console.log(
      'openapi-typescript with its default options: the documented fetch-ads, key, campaign and controls bodies compile',
    );
  } catch (error) {
    console.error(error.stdout || error.message);
    console.error(
      'The documented calls do not compile against the types openapi-typescript generates with its default options (above).',
    );
    process.exitCode = 1;
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
