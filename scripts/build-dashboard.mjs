// Builds the publisher dashboard (src/dashboard/web) into dist/dashboard/: one script and
// one stylesheet with content-hashed names, and index.html naming them. Run by
// `npm run build` after `nest build` (which empties dist/), and by `npm run test:browser`.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const source = join(root, 'src/dashboard/web');
const out = join(root, 'dist/dashboard');
const assets = join(out, 'assets');
const publicPath = '/dashboard/assets/';

await rm(out, { recursive: true, force: true });
await mkdir(assets, { recursive: true });

const result = await build({
  absWorkingDir: root,
  entryPoints: { app: join(source, 'main.tsx'), styles: join(source, 'styles.css') },
  outdir: assets,
  entryNames: '[name]-[hash]',
  bundle: true,
  format: 'esm',
  target: ['es2022', 'chrome111', 'firefox111', 'safari16'],
  minify: true,
  sourcemap: 'linked',
  jsx: 'automatic',
  jsxImportSource: 'preact',
  tsconfig: join(source, 'tsconfig.json'),
  define: { 'process.env.NODE_ENV': '"production"' },
  legalComments: 'linked',
  metafile: true,
  logLevel: 'warning',
});

const outputs = Object.entries(result.metafile.outputs);
const output = (entry) => {
  const [file] = outputs.find(([, meta]) => meta.entryPoint === relative(root, entry)) ?? [];
  if (!file) throw new Error(`esbuild wrote nothing for ${entry}`);
  return publicPath + basename(file);
};

// The icon gets a content hash too, so every asset can be cached for good.
const icon = await readFile(join(source, 'favicon.svg'));
const iconName = `favicon-${createHash('sha256').update(icon).digest('hex').slice(0, 8)}.svg`;
await writeFile(join(assets, iconName), icon);

const template = await readFile(join(source, 'index.html'), 'utf8');
const html = template
  .replace('%SCRIPT%', output(join(source, 'main.tsx')))
  .replace('%STYLES%', output(join(source, 'styles.css')))
  .replace('%FAVICON%', publicPath + iconName);
await writeFile(join(out, 'index.html'), html);

const sizes = outputs
  .filter(([file]) => !file.endsWith('.map'))
  .map(([file, meta]) => `${relative(root, file)} ${(meta.bytes / 1024).toFixed(1)} KiB`);
console.log(`dashboard built into ${relative(root, out)}/\n  ${sizes.join('\n  ')}`);
