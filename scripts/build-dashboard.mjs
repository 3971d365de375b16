// Builds the publisher dashboard (src/dashboard/web) into dist/dashboard/: one script and
// one stylesheet with content-hashed names, and index.html naming them. Run by
// `npm run build` after `nest build` (which leaves dist/dashboard/ alone: nest-cli.json's
// deleteOutDir is off), by `npm start` when the dashboard is older than its sources, and by
// `npm run test:browser`. It builds into a folder of its own, then swaps it in whole, so a
// running service serves the old dashboard or the new one, never half of either.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const source = join(root, 'src/dashboard/web');
const out = join(root, 'dist/dashboard');
// Named per process, so that two builds at once never write into each other.
const next = `${out}.next-${process.pid}`;
const previous = `${out}.previous-${process.pid}`;
const assets = join(next, 'assets');
const publicPath = '/dashboard/assets/';

await rm(next, { recursive: true, force: true });
await mkdir(assets, { recursive: true });
// A failed build leaves nothing behind (after a good one, `next` is the dashboard already).
process.on('exit', () => rmSync(next, { recursive: true, force: true }));

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
await writeFile(join(next, 'index.html'), html);

// Two renames: the service finds no dashboard only between them.
await rm(previous, { recursive: true, force: true });
await rename(out, previous).catch((error) => {
  if (error.code !== 'ENOENT') throw error;
});
await rename(next, out);
await rm(previous, { recursive: true, force: true });

const sizes = outputs
  .filter(([file]) => !file.endsWith('.map'))
  .map(([file, meta]) => {
    const path = relative(root, join(out, relative(next, join(root, file))));
    return `${path} ${(meta.bytes / 1024).toFixed(1)} KiB`;
  });
console.log(`dashboard built into ${relative(root, out)}/\n  ${sizes.join('\n  ')}`);
