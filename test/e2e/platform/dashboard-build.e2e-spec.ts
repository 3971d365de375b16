import { spawnSync } from 'node:child_process';
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
import { DashboardFiles } from '@/dashboard/dashboard-files';
import { startTestApp, type TestApp } from '@test/support/test-app';
import { testDatabaseKind } from '@test/support/test-database';
import { ROOT } from '@test/support/paths';

/**
 * Writes what `scripts/build-dashboard.mjs` writes into `dir`: an index.html naming a
 * script whose name carries `hash`, and that script.
 */
function writeDashboard(dir: string, hash: string): string {
  const script = `app-${hash}.js`;
  mkdirSync(join(dir, 'assets'), { recursive: true });
  writeFileSync(join(dir, 'assets', script), `console.log('build ${hash}');\n`);
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html><meta name="adline-session" content="%SESSION%">' +
      `<script type="module" src="/dashboard/assets/${script}"></script>`,
  );
  return `/dashboard/assets/${script}`;
}

describe(`a dashboard built while the service runs (${testDatabaseKind()})`, () => {
  let t: TestApp;
  let dir: string;

  beforeAll(async () => {
    // The service looks for the dashboard here instead of in dist/dashboard, which other
    // suites read; nothing is built there yet when it starts.
    dir = mkdtempSync(join(tmpdir(), 'adline-dashboard-'));
    const located = jest.spyOn(DashboardFiles, 'builtDirectory').mockReturnValue(dir);
    try {
      t = await startTestApp();
    } finally {
      located.mockRestore();
    }
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is served once built, and again once rebuilt under new names, without a restart', async () => {
    const before = await t.http('/dashboard');
    expect(before.status).toBe(503);
    expect(await before.text()).toContain('run `npm run build`, then reload');

    const first = writeDashboard(dir, 'AAAA1111');
    const page = await t.http('/dashboard');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(`src="${first}"`);
    const script = await t.http(first);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toContain('javascript');
    expect(script.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(script.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await script.text()).toContain('build AAAA1111');

    // A rebuild replaces the folder: the page names the new script, which is served.
    rmSync(dir, { recursive: true });
    const second = writeDashboard(dir, 'BBBB2222');
    expect(await (await t.http('/dashboard/')).text()).toContain(`src="${second}"`);
    const rebuilt = await t.http(second);
    expect(rebuilt.status).toBe(200);
    expect(await rebuilt.text()).toContain('build BBBB2222');
    expect((await t.http(first)).status).toBe(404);
  });

  it('serves nothing outside its assets folder', async () => {
    writeDashboard(dir, 'CCCC3333');
    writeFileSync(join(dir, 'assets', '.secret'), 'a dotfile');
    const paths = [
      '/dashboard/assets/..%2findex.html',
      '/dashboard/assets/%2e%2e/index.html',
      '/dashboard/assets/%2e%2e%2f%2e%2e%2fpackage.json',
      '/dashboard/assets/.secret',
      '/dashboard/assets/',
    ];
    const served = [];
    for (const path of paths) {
      const answer = await t.http(path);
      const text = await answer.text();
      if (answer.status < 400 || answer.status >= 500 || /a dotfile|adline-session/.test(text)) {
        served.push({ path, status: answer.status, text });
      }
    }
    expect(served).toEqual([]);
  });
});

describe('the server build (nest build with the project’s nest-cli.json)', () => {
  it('leaves the built dashboard in dist/ in place', () => {
    // A stand-in project: one source file, the project's nest-cli.json, and the dashboard
    // as scripts/build-dashboard.mjs leaves it in dist/dashboard.
    const project = mkdtempSync(join(tmpdir(), 'adline-nest-build-'));
    try {
      copyFileSync(join(ROOT, 'nest-cli.json'), join(project, 'nest-cli.json'));
      writeFileSync(
        join(project, 'tsconfig.build.json'),
        JSON.stringify({
          compilerOptions: { outDir: 'dist', rootDir: '.', module: 'commonjs', types: [] },
          include: ['src'],
        }),
      );
      mkdirSync(join(project, 'src'));
      writeFileSync(join(project, 'src', 'main.ts'), "console.log('server');\n");
      const script = writeDashboard(join(project, 'dist', 'dashboard'), 'DDDD4444');

      const build = spawnSync(join(ROOT, 'node_modules', '.bin', 'nest'), ['build'], {
        cwd: project,
        encoding: 'utf8',
      });
      expect({ status: build.status, output: build.stdout + build.stderr }).toEqual({
        status: 0,
        output: '',
      });
      expect(existsSync(join(project, 'dist', 'src', 'main.js'))).toBe(true);
      expect(readFileSync(join(project, 'dist', 'dashboard', 'index.html'), 'utf8')).toContain(
        script,
      );
      expect(existsSync(join(project, script.replace('/dashboard/', 'dist/dashboard/')))).toBe(
        true,
      );
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  }, 60_000);
});
