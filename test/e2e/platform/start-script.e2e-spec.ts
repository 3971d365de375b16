import { spawn } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ask } from '@test/support/ads';
import { startDemo } from '@test/support/start-process';
import { createTestDatabase, testDatabaseKind } from '@test/support/test-database';
import { ROOT } from '@test/support/paths';

const SCRIPT = join(ROOT, 'scripts', 'start.mjs');

/**
 * A stand-in project: its `build` counts its runs and writes a `dist/src/main.js` that
 * prints a line, then exits with the code in EXIT_CODE or waits for SIGTERM, and the
 * dashboard's page; its `scripts/build-dashboard.mjs` counts its runs and writes the page.
 */
function makeProject(): string {
  const root = mkdtempSync(join(tmpdir(), 'adline-start-'));
  mkdirSync(join(root, 'scripts'));
  mkdirSync(join(root, 'src'));
  mkdirSync(join(root, 'migrations'));
  mkdirSync(join(root, 'src', 'dashboard', 'web'), { recursive: true });
  copyFileSync(SCRIPT, join(root, 'scripts', 'start.mjs'));
  writeFileSync(join(root, 'src', 'main.ts'), '// source\n');
  writeFileSync(join(root, 'src', 'dashboard', 'web', 'app.tsx'), '// dashboard source\n');
  writeFileSync(join(root, 'tsconfig.json'), '{}\n');
  const main = [
    "console.log('service running');",
    "process.on('SIGTERM', () => { console.log('service got SIGTERM'); process.exit(0); });",
    'if (process.env.EXIT_CODE) process.exit(Number(process.env.EXIT_CODE));',
    'setInterval(() => undefined, 1000);',
  ].join('\n');
  const writePage = [
    "fs.mkdirSync('dist/dashboard', { recursive: true });",
    "fs.writeFileSync('dist/dashboard/index.html', '<!doctype html>');",
  ];
  const build = [
    "const fs = require('fs');",
    "fs.appendFileSync('builds.log', 'built\\n');",
    "fs.mkdirSync('dist/src', { recursive: true });",
    `fs.writeFileSync('dist/src/main.js', ${JSON.stringify(main)});`,
    ...writePage,
  ].join('\n');
  writeFileSync(join(root, 'build.js'), build);
  const buildDashboard = [
    "import fs from 'node:fs';",
    "fs.appendFileSync('builds.log', 'dashboard\\n');",
    ...writePage,
  ].join('\n');
  writeFileSync(join(root, 'scripts', 'build-dashboard.mjs'), buildDashboard);
  writeFileSync(
    join(root, 'package.json'),
    JSON.stringify({ name: 'stand-in', private: true, scripts: { build: 'node build.js' } }),
  );
  return root;
}

/** How many times `kind` ran: `built` (npm run build) or `dashboard` (the dashboard alone). */
function builds(root: string, kind: 'built' | 'dashboard' = 'built'): number {
  const log = join(root, 'builds.log');
  if (!existsSync(log)) return 0;
  return readFileSync(log, 'utf8')
    .split('\n')
    .filter((line) => line === kind).length;
}

function start(root: string, env: Record<string, string> = {}) {
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, exited, stdout: () => stdout };
}

describe(`npm start (scripts/start.mjs; ${testDatabaseKind()} run)`, () => {
  let root: string;
  beforeEach(() => {
    root = makeProject();
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('builds on the first start, skips the build while dist is newer, builds again after an edit', async () => {
    const first = start(root, { EXIT_CODE: '0' });
    expect(await first.exited).toEqual({ code: 0, signal: null });
    expect(builds(root)).toBe(1);
    expect(first.stdout()).toContain('service running');

    const second = start(root, { EXIT_CODE: '0' });
    expect(await second.exited).toEqual({ code: 0, signal: null });
    expect(builds(root)).toBe(1);
    expect(second.stdout()).toContain('starting without a build');

    // An edit after the last build, in src/ and then in a new tsconfig*.json: each rebuilds.
    writeFileSync(join(root, 'src', 'main.ts'), '// edited\n');
    expect(await start(root, { EXIT_CODE: '0' }).exited).toEqual({ code: 0, signal: null });
    expect(builds(root)).toBe(2);
    writeFileSync(join(root, 'tsconfig.build.json'), '{}\n');
    expect(await start(root, { EXIT_CODE: '0' }).exited).toEqual({ code: 0, signal: null });
    expect(builds(root)).toBe(3);
    expect(await start(root, { EXIT_CODE: '0' }).exited).toEqual({ code: 0, signal: null });
    expect(builds(root)).toBe(3);
  }, 60_000);

  it('builds the dashboard alone when it is missing or older than its sources', async () => {
    expect(await start(root, { EXIT_CODE: '0' }).exited).toEqual({ code: 0, signal: null });
    expect([builds(root), builds(root, 'dashboard')]).toEqual([1, 0]);

    // What a script that ran `nest build` alone used to leave: dist/ without the dashboard.
    rmSync(join(root, 'dist', 'dashboard'), { recursive: true });
    const missing = start(root, { EXIT_CODE: '0' });
    expect(await missing.exited).toEqual({ code: 0, signal: null });
    expect(missing.stdout()).toContain('building the dashboard');
    expect(missing.stdout()).toContain('service running');
    expect([builds(root), builds(root, 'dashboard')]).toEqual([1, 1]);

    // An edit to the dashboard's sources rebuilds the dashboard, not the server.
    writeFileSync(join(root, 'src', 'dashboard', 'web', 'app.tsx'), '// edited\n');
    expect(await start(root, { EXIT_CODE: '0' }).exited).toEqual({ code: 0, signal: null });
    expect([builds(root), builds(root, 'dashboard')]).toEqual([1, 2]);
    const fresh = start(root, { EXIT_CODE: '0' });
    expect(await fresh.exited).toEqual({ code: 0, signal: null });
    expect(fresh.stdout()).toContain('starting without a build');
    expect([builds(root), builds(root, 'dashboard')]).toEqual([1, 2]);
  }, 60_000);

  it("exits with the service's exit code", async () => {
    const run = start(root, { EXIT_CODE: '7' });
    expect(await run.exited).toEqual({ code: 7, signal: null });
  }, 30_000);

  it('forwards SIGTERM to the service and exits as it does', async () => {
    const run = start(root);
    const deadline = Date.now() + 20_000;
    while (!run.stdout().includes('service running')) {
      if (Date.now() > deadline) throw new Error(`no start: ${run.stdout()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    run.child.kill('SIGTERM');
    expect(await run.exited).toEqual({ code: 0, signal: null });
    expect(run.stdout()).toContain('service got SIGTERM');
  }, 30_000);
});

describe(`the start-up lines of a development start on an empty database (${testDatabaseKind()})`, () => {
  it('print the demo sign-in, a live key and a test key of the demo model, both of which serve ads', async () => {
    const db = await createTestDatabase();
    const { service, base, key } = await startDemo({ DATABASE_URL: db.url });
    try {
      const lines = service.stdout().split('\n');
      expect(lines).toContainEqual(
        '  demo publisher: demo@adline.local, password demo-password-123',
      );
      expect(lines).toContainEqual(
        expect.stringMatching(/^ {2}demo API key \(model [^)]+\): adl_live_\S{43}$/),
      );
      const testLine = lines.find((line) => line.includes('demo test key'));
      expect(testLine).toMatch(
        /^ {2}demo test key \(same model; real ads and links, nothing billed\): adl_test_\S{43}$/,
      );
      expect(lines).toContainEqual(expect.stringContaining(`-H 'service-api-key: ${key}'`));
      const testKey = testLine!.split(': ')[1];
      for (const secret of [key, testKey]) {
        const answer = await fetch(`${base}/api/fetch-ads`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'service-api-key': secret },
          body: JSON.stringify(ask('gpu, machine learning')),
        });
        expect(answer.status).toBe(200);
      }
    } finally {
      service.kill('SIGTERM');
      await service.exited;
      await db.drop();
    }
  }, 60_000);
});
