import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMain } from '@test/support/start-process';
import { testDatabaseKind } from '@test/support/test-database';

/** Exiting "at once": the start-up itself, TypeScript compiled on the fly included. */
const EXITS_WITHIN_MS = 10_000;
const SECRETS = {
  CLICK_SIGNING_SECRET: 'test-signing-secret-0123456789abcdef',
  SESSION_SECRET: 'test-session-secret-0123456789abcdef',
};

/**
 * Root writes wherever it likes, so as root the service is started as `nobody`, for whom
 * the modes below hold; any other user is refused by the modes themselves.
 */
const asRoot = process.getuid?.() === 0;
const NOBODY = 65534;
const runAs = asRoot ? { uid: NOBODY, gid: NOBODY } : {};
const ownForRunner = (path: string) => asRoot && chownSync(path, NOBODY, NOBODY);

// The broken start is the same on either database kind: it never reaches the test database.
describe(`a start-up that cannot use its SQLite database (${testDatabaseKind()} run)`, () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'adline-broken-start-'));
    chmodSync(dir, 0o755);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  async function expectOneLineExit(env: Record<string, string>, pattern: RegExp) {
    const { exited } = startMain(env, runAs);
    const { code, stderr, ms } = await exited;
    console.log(`start-up refused in ${(ms / 1000).toFixed(2)} s: ${stderr.trim()}`);
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr.trim()).toMatch(pattern);
    expect(ms).toBeLessThan(EXITS_WITHIN_MS);
  }

  it('exits at once with one line when the data directory cannot be created', async () => {
    const locked = join(dir, 'locked');
    mkdirSync(locked, { mode: 0o555 });
    chmodSync(locked, 0o555);
    // In development (NODE_ENV unset) it would also keep its generated secrets there.
    await expectOneLineExit(
      { DATABASE_URL: `sqlite:${join(locked, 'data', 'adline.sqlite')}`, PORT: '0' },
      /^Invalid environment variable DATABASE_URL: cannot create the directory .*locked\/data \(EACCES\); make it writable/,
    );
  }, 30_000);

  it('exits at once with one line when a path of DATABASE_URL is a file', async () => {
    const file = join(dir, 'not-a-directory');
    writeFileSync(file, '');
    await expectOneLineExit(
      { ...SECRETS, NODE_ENV: 'test', DATABASE_URL: `sqlite:${join(file, 'adline.sqlite')}` },
      /^Invalid environment variable DATABASE_URL: .*not-a-directory is a file, not a directory/,
    );
  }, 30_000);

  it('exits at once with one line when the database file is read-only', async () => {
    const data = join(dir, 'read-only');
    mkdirSync(data);
    ownForRunner(data);
    const file = join(data, 'adline.sqlite');
    writeFileSync(file, '');
    ownForRunner(file);
    chmodSync(file, 0o444);
    await expectOneLineExit(
      { ...SECRETS, NODE_ENV: 'test', DATABASE_URL: `sqlite:${file}` },
      /^Invalid environment variable DATABASE_URL: cannot write the SQLite database .*adline\.sqlite \(SQLITE_READONLY[A-Z_]*: .*\); make it writable/,
    );
  }, 30_000);
});
