import { createServer } from 'node:net';
import { startMain, type Exited } from '@test/support/start-process';
import {
  createTestDatabase,
  testDatabaseKind,
  type TestDatabase,
} from '@test/support/test-database';

const SECRETS = {
  CLICK_SIGNING_SECRET: 'test-signing-secret-0123456789abcdef',
  SESSION_SECRET: 'test-session-secret-0123456789abcdef',
};

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '0.0.0.0', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Status of /health/live at that address, or the connection error's code. */
async function live(address: string, port: number): Promise<number | string> {
  try {
    return (await fetch(`http://${address}:${port}/health/live`)).status;
  } catch (error) {
    return ((error as Error).cause as NodeJS.ErrnoException | undefined)?.code ?? 'failed';
  }
}

/**
 * Linux routes all of 127.0.0.0/8 to the loopback interface, so 127.0.0.2 stands for
 * "another address of this machine": a server on 127.0.0.1 refuses it, one on 0.0.0.0 answers.
 */
const OTHER_ADDRESS = '127.0.0.2';

describe(`HOST: where the service listens (${testDatabaseKind()})`, () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db.drop());

  async function run(env: Record<string, string>, expectLine: RegExp, otherAddress: unknown) {
    const port = await freePort();
    const service = startMain({ ...SECRETS, DATABASE_URL: db.url, PORT: String(port), ...env });
    try {
      // The first start migrates a fresh database and compiles src/ on the fly: on a loaded
      // 2-core machine with MariaDB that can take a while.
      let exit: Exited | undefined;
      void service.exited.then((exited) => (exit = exited));
      const deadline = Date.now() + 100_000;
      while (!service.stdout().includes('Adline listening')) {
        if (exit) throw new Error(`the service exited ${exit.code}: ${exit.stderr}`);
        if (Date.now() > deadline) throw new Error(`no start-up: ${service.stdout()}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(service.stdout()).toMatch(expectLine);
      expect(await live('127.0.0.1', port)).toBe(200);
      expect(await live(OTHER_ADDRESS, port)).toBe(otherAddress);
    } finally {
      service.kill('SIGTERM');
      await service.exited;
    }
  }

  it('listens only on 127.0.0.1 outside production, and says so', async () => {
    await run(
      { NODE_ENV: 'test' },
      /Adline listening on 127\.0\.0\.1:\d+, public address/,
      'ECONNREFUSED',
    );
  }, 150_000);

  it('listens on every interface in production', async () => {
    await run(
      { NODE_ENV: 'production' },
      /Adline listening on 0\.0\.0\.0:\d+, public address/,
      200,
    );
  }, 150_000);

  it('listens where HOST says', async () => {
    await run(
      { NODE_ENV: 'test', HOST: '0.0.0.0', BASE_URL: 'https://ads.example.com' },
      /Adline listening on 0\.0\.0\.0:\d+, public address https:\/\/ads\.example\.com /,
      200,
    );
  }, 150_000);

  it('refuses a HOST that is no address with one line', async () => {
    const { code, stderr } = await startMain({
      ...SECRETS,
      NODE_ENV: 'test',
      HOST: 'http://0.0.0.0',
    }).exited;
    expect(code).toBe(1);
    expect(stderr.trim()).toBe(
      'Invalid environment variable HOST: must be an IP address or a host name (got "http://0.0.0.0")',
    );
  }, 30_000);
});
