import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = join(__dirname, '..', '..', '..');
const bin = (name: string) => join(root, 'node_modules', '.bin', name);

/** The generation step of `npm run openapi`, kept in one place with the check below. */
const GENERATE_TYPES =
  'openapi-typescript openapi.json --redocly clients/typescript/redocly.yaml --default-non-nullable false -o clients/typescript/src/schema.ts';

describe('the TypeScript client’s generated types', () => {
  it('`npm run openapi` regenerates them after openapi.json', () => {
    const scripts = (
      JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
        scripts: Record<string, string>;
      }
    ).scripts;
    expect(scripts.openapi).toContain(`generate-openapi.js && ${GENERATE_TYPES}`);
  });

  it('the committed schema.ts is what openapi-typescript makes of the committed openapi.json (run `npm run openapi`)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'adline-client-types-'));
    try {
      const [, input, ...flags] = GENERATE_TYPES.split(' ').slice(0, -2);
      await run(bin('openapi-typescript'), [input, ...flags, '-o', join(dir, 'schema.ts')], {
        cwd: root,
      });
      const generated = readFileSync(join(dir, 'schema.ts'), 'utf8');
      const committed = readFileSync(
        join(root, 'clients', 'typescript', 'src', 'schema.ts'),
        'utf8',
      );
      expect(committed).toBe(generated);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('the client and test/typecheck-routes.ts (every publisher and operator route, no cast) compile', async () => {
    const compiled = await run(
      bin('tsc'),
      ['--noEmit', '-p', join(root, 'clients', 'typescript', 'tsconfig.json')],
      { cwd: root },
    ).catch((error: { stdout?: string; code?: number }) => error);
    expect(compiled.stdout).toBe('');
  }, 120_000);
});
