// The TypeScript client installs and works as its README says, in a project of its own:
// `npm run client:pack` here, then `npm install <the tarball>` (and `ai`, the middleware's
// peer) in a fresh folder outside the repository. There it type-checks the READMEs' own code
// (every ```ts block of clients/typescript/README.md and of README.md's integration
// snippets, which the dashboard shows) with tsc, as ES modules, as CommonJS and with the old
// `node10` resolution, and loads both entry points at run time with require() and import,
// getting an ad through each. Only the tarball and the client's dependencies are installed
// (from npm's cache when it has them); tsc and @types/node are the repository's.
// Run by .ci/run:
//   node scripts/check-client-install.mjs
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const clientReadme = readFileSync(join(root, 'clients/typescript/README.md'), 'utf8');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const manifest = JSON.parse(readFileSync(join(root, 'clients/typescript/package.json'), 'utf8'));
const tarball = join(root, `adline-client-${manifest.version}.tgz`);
const aiVersion = JSON.parse(
  readFileSync(join(root, 'node_modules/ai/package.json'), 'utf8'),
).version;
const tsc = join(root, 'node_modules/typescript/bin/tsc');

/** What the READMEs' blocks leave to the reader: their own logger, model, messages, … */
const GLOBALS = `declare const baseUrl: string;
declare const apiKey: string;
declare const accessToken: string;
declare const advertiser_id: string;
declare const clickId: string;
declare const conversation: { role: 'user' | 'assistant'; content: string }[];
declare const messages: import('ai').ModelMessage[];
declare const logger: { warn(details: object, message: string): void };
declare function generateReply(messages: { role: string; content: string }[]): Promise<string>;
declare function extractKeywords(conversation: string): string[];
// The AI SDK's OpenAI provider, which the middleware's examples wrap; any AI SDK 6 model.
declare module '@ai-sdk/openai' {
  export function openai(
    modelId: string,
  ): Parameters<typeof import('ai').wrapLanguageModel>[0]['model'];
}
`;

/** Both entry points, typed, from CommonJS (and from a node10 project). */
const ENTRY_POINTS = `import { createAdlineClient, type Advertisement } from '@adline/client';
import { adlineMiddleware } from '@adline/client/ai-sdk';

const client = createAdlineClient({ baseUrl: 'http://localhost:3000', apiKey: 'adl_test_x' });
export const ad: Promise<Advertisement | null> = client.fetchAd({
  conversation: 'Which GPU should I rent?',
  keywords: ['gpu'],
});
export const middleware = adlineMiddleware({ client, keywords: 'gpu' });
`;

const run = (command, args, options = {}) =>
  execFileSync(command, args, { cwd: root, encoding: 'utf8', ...options });
let dir; // the fresh project, removed on the way out
const fail = (message) => {
  console.error(`check-client-install: ${message}`);
  if (dir) rmSync(dir, { recursive: true, force: true });
  process.exit(1);
};

// The README's install commands are the ones this script runs.
const install = /## Install\n[^#]*?```sh\n([\s\S]*?)```/.exec(clientReadme)?.[1] ?? '';
for (const command of [
  'npm run client:pack',
  `npm install /path/to/adline/${tarball.split('/').pop()}`,
]) {
  if (!install.includes(command))
    fail(`clients/typescript/README.md's Install block lacks \`${command}\``);
}

// Every doc that names the tarball names this version's.
for (const file of [
  'README.md',
  'clients/typescript/README.md',
  'docs/api.md',
  'examples/publisher-backend/README.md',
  'examples/publisher-backend/package.json',
  'src/dashboard/web/integration-snippets.ts',
]) {
  const text = readFileSync(join(root, file), 'utf8');
  const named = [...text.matchAll(/adline-client-([^\s/`'"]+)\.tgz/g)].map((match) => match[1]);
  if (named.length === 0) fail(`${file} no longer says how to install the client's tarball`);
  const stale = named.find((version) => version !== manifest.version);
  if (stale) fail(`${file} names adline-client-${stale}.tgz; the client is ${manifest.version}`);
}

dir = mkdtempSync(join(tmpdir(), 'adline-client-install-'));
try {
  rmSync(tarball, { force: true });
  run('npm', ['run', 'client:pack', '--loglevel=warn'], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (!existsSync(tarball)) fail(`npm run client:pack did not write ${tarball}`);

  writeFileSync(
    join(dir, 'package.json'),
    `${JSON.stringify({ name: 'adline-client-install-check', private: true, type: 'module' }, null, 2)}\n`,
  );
  run(
    'npm',
    ['install', tarball, `ai@${aiVersion}`, '--prefer-offline', '--no-audit', '--no-fund'],
    { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  checkPackageFiles(join(dir, 'node_modules/@adline/client'));

  const files = writeReadmeBlocks(dir);
  writeFileSync(join(dir, 'globals.d.ts'), GLOBALS);
  writeFileSync(join(dir, 'entry-points.cts'), ENTRY_POINTS);
  writeFileSync(join(dir, 'entry-points-node10.ts'), ENTRY_POINTS);
  const compilerOptions = {
    strict: true,
    target: 'es2022',
    skipLibCheck: true,
    noEmit: true,
    types: ['node'],
    typeRoots: [join(root, 'node_modules/@types')],
  };
  const configs = {
    // The READMEs' blocks as ES modules (top-level await), and the entry points from CommonJS.
    'tsconfig.json': {
      compilerOptions: { ...compilerOptions, module: 'nodenext' },
      files: ['globals.d.ts', 'entry-points.cts', ...files],
    },
    // A project that still resolves as Node 10 did (no "exports"): typesVersions serve it.
    'tsconfig.node10.json': {
      compilerOptions: {
        ...compilerOptions,
        module: 'commonjs',
        moduleResolution: 'node10',
        ignoreDeprecations: '6.0',
      },
      files: ['entry-points-node10.ts'],
    },
  };
  for (const [name, config] of Object.entries(configs)) {
    writeFileSync(join(dir, name), JSON.stringify(config, null, 2));
    try {
      run(process.execPath, [tsc, '-p', name], { cwd: dir });
    } catch (error) {
      console.error(error.stdout || error.message);
      fail(`the installed client's types refuse the code above (tsc -p ${name})`);
    }
  }

  writeFileSync(join(dir, 'runtime.cjs'), runtimeCheck('require'));
  writeFileSync(join(dir, 'runtime.mjs'), runtimeCheck('import'));
  for (const file of ['runtime.cjs', 'runtime.mjs']) {
    console.log(run(process.execPath, [file], { cwd: dir }).trim());
  }
  console.log(
    `${tarball.split('/').pop()} installs in a fresh project; ${files.length} README code blocks compile against it (ESM, CommonJS and node10 resolution)`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}

/** Every file the package's exports name is in the tarball, and nothing of its sources. */
function checkPackageFiles(installed) {
  const pkg = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8'));
  const targets = [pkg.main, pkg.types];
  for (const entry of Object.values(pkg.exports)) {
    targets.push(...(typeof entry === 'string' ? [entry] : Object.values(entry)));
  }
  for (const paths of Object.values(pkg.typesVersions?.['*'] ?? {})) targets.push(...paths);
  for (const target of targets) {
    if (!existsSync(join(installed, target))) fail(`the tarball lacks ${target}`);
  }
  for (const absent of ['src', 'test', 'tsconfig.json']) {
    if (existsSync(join(installed, absent))) fail(`the tarball holds ${absent}`);
  }
}

/**
 * The ```ts blocks of clients/typescript/README.md and of README.md's integration snippets,
 * a module each; a block that calls createAdlineClient without importing it gets the import.
 */
function writeReadmeBlocks(into) {
  const start = readme.indexOf('<!-- integration-snippets: start');
  const end = readme.indexOf('<!-- integration-snippets: end');
  if (start < 0 || end < start) fail("README.md's integration snippets markers are missing");
  const sources = [
    ['client-readme', clientReadme],
    ['readme', readme.slice(start, end)],
  ];
  const files = [];
  for (const [name, markdown] of sources) {
    const blocks = [...markdown.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]);
    if (blocks.length === 0) fail(`no \`\`\`ts block in ${name}`);
    blocks.forEach((block, index) => {
      const imports =
        /\bcreateAdlineClient\(/.test(block) && !/from '@adline\/client'/.test(block)
          ? "import { createAdlineClient } from '@adline/client';\n"
          : '';
      const file = `${name}-${index + 1}.ts`;
      writeFileSync(join(into, file), `${imports}${block}export {};\n`);
      files.push(file);
    });
  }
  return files;
}

/** Loads both entry points with require() or import and gets an ad through each. */
function runtimeCheck(how) {
  const load =
    how === 'require'
      ? `const { createAdlineClient } = require('@adline/client');
const { adlineMiddleware } = require('@adline/client/ai-sdk');
const { generateText, wrapLanguageModel } = require('ai');
const { MockLanguageModelV3 } = require('ai/test');`
      : `import { createAdlineClient } from '@adline/client';
import { adlineMiddleware } from '@adline/client/ai-sdk';
import { generateText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';`;
  return `${load}

const AD = '\\n\\n**GPUs by the hour** [Rent one](https://adline.test/c/1)';
const keys = [];
const adline = createAdlineClient({
  baseUrl: 'http://adline.test',
  apiKey: 'adl_test_key',
  fetch: async (request) => {
    keys.push(request.headers.get('service-api-key'));
    return Response.json({ advertisements: [{ campaign_markdown: AD }] });
  },
});
const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};
const model = wrapLanguageModel({
  model: new MockLanguageModelV3({
    doGenerate: async () => ({
      content: [{ type: 'text', text: 'Rent one by the hour.' }],
      finishReason: { unified: 'stop', raw: undefined },
      usage,
      warnings: [],
    }),
  }),
  middleware: adlineMiddleware({ client: adline, keywords: ['gpu'] }),
});

(async () => {
  const ad = await adline.fetchAd({ conversation: 'Which GPU should I rent?', keywords: ['gpu'] });
  const { text } = await generateText({ model, prompt: 'Which GPU should I rent?' });
  if (ad?.campaign_markdown !== AD || text !== 'Rent one by the hour.' + AD) {
    throw new Error(\`${how}: fetchAd answered \${JSON.stringify(ad)}, generateText \${JSON.stringify(text)}\`);
  }
  if (keys.join() !== 'adl_test_key,adl_test_key') throw new Error(\`${how}: keys sent \${keys}\`);
  console.log('${how}: @adline/client and @adline/client/ai-sdk load, and each got the ad');
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
`;
}
