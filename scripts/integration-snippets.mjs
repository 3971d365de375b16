// The integration snippets of src/dashboard/web/integration-snippets.ts, loaded from Node.
// Run directly, it writes them into the README between its two snippet markers:
//   node scripts/integration-snippets.mjs
import { build } from 'esbuild';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The module itself, compiled by esbuild (Node 22 imports TypeScript only behind a flag). */
export async function loadIntegrationSnippets() {
  const result = await build({
    entryPoints: [join(root, 'src/dashboard/web/integration-snippets.ts')],
    bundle: true,
    format: 'esm',
    platform: 'node',
    write: false,
    logLevel: 'warning',
  });
  const code = result.outputFiles[0].text;
  return import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`);
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { readmeWithSnippets } = await loadIntegrationSnippets();
  const readme = join(root, 'README.md');
  writeFileSync(readme, readmeWithSnippets(readFileSync(readme, 'utf8')));
  console.log('README.md: integration snippets written');
}
