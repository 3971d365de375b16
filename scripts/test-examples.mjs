// Runs the example publisher backends' tests (examples/) against a real Adline: the built
// service (`npm run build` first) on a fresh SQLite database with its demo data, whose demo
// test key (real ads and links, nothing billed) the examples use. Run by .ci/run; needs
// python3 for the Python example.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadIntegrationSnippets } from './integration-snippets.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const run = (command, args, options = {}) =>
  execFileSync(command, args, { cwd: root, stdio: 'inherit', ...options });

// The Node example installs @adline/client as the client's README says: `npm run client:pack`
// here, then `npm install <the tarball>` in the project, whose package.json then names it.
const example = join(root, 'examples/publisher-backend');
const { version } = JSON.parse(readFileSync(join(root, 'clients/typescript/package.json'), 'utf8'));
const tarball = `../../adline-client-${version}.tgz`;
const { dependencies } = JSON.parse(readFileSync(join(example, 'package.json'), 'utf8'));
if (dependencies['@adline/client'] !== `file:${tarball}`) {
  throw new Error(
    `examples/publisher-backend/package.json must depend on "@adline/client": "file:${tarball}" (the client's version)`,
  );
}
run('npm', ['run', 'client:pack']);
run('npm', ['install', tarball, '--no-audit', '--no-fund'], { cwd: example });
// The advertiser example reports conversions on the same client; its tests use a stand-in.
const advertiserExample = join(root, 'examples/advertiser-backend');
run('npm', ['install', tarball, '--no-audit', '--no-fund'], { cwd: advertiserExample });
run('node', ['--test'], { cwd: advertiserExample });

const dataDir = mkdtempSync(join(tmpdir(), 'adline-examples-'));
const port = await freePort();
const adline = spawn(process.execPath, ['dist/src/main.js'], {
  cwd: root,
  env: {
    ...process.env,
    NODE_ENV: 'development',
    DATABASE_URL: `sqlite:${join(dataDir, 'adline.sqlite')}`,
    PORT: String(port),
    HOST: '127.0.0.1',
    BASE_URL: `http://127.0.0.1:${port}`,
    LOG_LEVEL: 'warn',
    REDIS_URL: '',
  },
  stdio: ['ignore', 'pipe', 'inherit'],
});
try {
  const testKey = await demoTestKey(adline);
  const env = {
    ...process.env,
    ADLINE_URL: `http://127.0.0.1:${port}`,
    ADLINE_API_KEY: testKey,
    ADLINE_EXAMPLES_REQUIRE_SERVICE: '1',
  };
  run('node', ['--test'], { cwd: example, env });
  run('python3', ['-m', 'unittest', 'discover', '-s', 'examples/python-backend', '-v'], { env });
  await checkPythonSnippet(env);
} finally {
  adline.kill('SIGTERM');
  await new Promise((resolve) => adline.once('exit', resolve));
  rmSync(dataDir, { recursive: true, force: true });
}

/** The README's and dashboard's Python snippet, as pasted: an ad for GPUs, none for zebras. */
async function checkPythonSnippet(env) {
  const { integrationSnippets } = await loadIntegrationSnippets();
  const snippet = integrationSnippets({ baseUrl: env.ADLINE_URL }).find((s) => s.id === 'python');
  const script = join(dataDir, 'snippet.py');
  writeFileSync(
    script,
    `${snippet.code}\n\nprint(repr(ad_for("Which GPU should I rent to train my model?", ["gpu", "machine learning"])))\nprint(repr(ad_for("Tell me about zebras", ["zebra"])))\n`,
  );
  const [gpu, zebras] = execFileSync('python3', [script], { env, encoding: 'utf8' })
    .trim()
    .split('\n');
  if (!gpu.includes(`${env.ADLINE_URL}/api/campaign_click?`) || zebras !== "''") {
    throw new Error(`the Python snippet answered ${gpu} and ${zebras}`);
  }
  console.log('the Python snippet fetched an ad, and none for zebras');
}

/** The demo test key the service prints once it listens and has seeded its demo data. */
function demoTestKey(child) {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(
      () => reject(new Error(`no demo test key in 60 s:\n${output}`)),
      60_000,
    );
    child.once('exit', (code) => reject(new Error(`Adline exited (${code}):\n${output}`)));
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const key = /demo test key[^:]*: (adl_test_\S+)/.exec(output)?.[1];
      if (key) {
        clearTimeout(timer);
        resolve(key);
      }
    });
  });
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}
