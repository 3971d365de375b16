import { startTcpProxy } from '@test/support/tcp-proxy';
import { ask, followAsBrowser } from '@test/support/ads';
import { messages, openRaw, SHUTDOWN_COMPLETE } from '@test/support/shutdown';
import { startDemo, type startMain } from '@test/support/start-process';
import {
  createTestDatabase,
  testDatabaseKind,
  type TestDatabase,
} from '@test/support/test-database';

describe(`SHUTDOWN_TIMEOUT_SECONDS bounds a shutdown with a stuck part (${testDatabaseKind()})`, () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db.drop());

  it('cuts off a client stalled mid-request at half the timeout, then exits 0 in time', async () => {
    const { service, port } = await startDemo({
      DATABASE_URL: db.url,
      SHUTDOWN_TIMEOUT_SECONDS: '4',
    });
    const stalled = await openRaw(port);
    stalled.socket.on('error', () => undefined);
    stalled.socket.write(
      'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 40\r\n\r\n{"email"',
    );
    await new Promise((resolve) => setTimeout(resolve, 200));

    const signalledAt = Date.now();
    service.kill('SIGTERM');
    const { code, signal } = await service.exited;
    const ms = Date.now() - signalledAt;
    console.log(`exited ${ms} ms after SIGTERM with a client stalled mid-request`);
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(ms).toBeGreaterThanOrEqual(2000);
    expect(ms).toBeLessThan(4000);
    const closing = messages(service.stdout()).filter((m) => m.startsWith('shutdown'));
    expect(closing).toEqual([expect.stringMatching(SHUTDOWN_COMPLETE) as string]);
    expect(SHUTDOWN_COMPLETE.exec(closing[0])![2]).toBe('1');
    stalled.socket.destroy();
  }, 60_000);

  // A frozen server is a MariaDB/MySQL matter (SQLite is in-process).
  if (testDatabaseKind() !== 'mysql') return;
  it('exits 1 within the timeout, saying so, when the database freezes', async () => {
    // An empty database of its own, so development seeds the demo key into it.
    const empty = await createTestDatabase();
    const server = new URL(empty.url.replace(/^mariadb:/, 'mysql:'));
    const proxy = await startTcpProxy({ host: server.hostname, port: Number(server.port) });
    let running: ReturnType<typeof startMain> | undefined;
    try {
      const { service, base, key } = await startDemo({
        DATABASE_URL: proxy.route(empty.url),
        SHUTDOWN_TIMEOUT_SECONDS: '3',
      });
      running = service;
      const ad = await fetch(`${base}/api/fetch-ads`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'service-api-key': key },
        body: JSON.stringify(ask('gpu, machine learning')),
      });
      expect(ad.status).toBe(200);
      const { advertisements } = (await ad.json()) as {
        advertisements: { campaign_link: string }[];
      };
      proxy.freeze();
      // Redirected without waiting for the frozen database; its click waits in its batch.
      expect((await followAsBrowser(advertisements[0].campaign_link)).status).toBe(302);

      const signalledAt = Date.now();
      service.kill('SIGTERM');
      const { code, signal } = await service.exited;
      const ms = Date.now() - signalledAt;
      console.log(`exited ${ms} ms after SIGTERM with the database frozen`);
      expect({ code, signal }).toEqual({ code: 1, signal: null });
      expect(ms).toBeGreaterThanOrEqual(3000);
      expect(ms).toBeLessThan(4500);
      const closing = messages(service.stdout()).filter((m) => m.startsWith('shutdown'));
      expect(closing).toEqual([
        expect.stringMatching(
          /^shutdown after SIGTERM did not finish within 3\.0 s \(SHUTDOWN_TIMEOUT_SECONDS\); exiting anyway/,
        ) as string,
      ]);
      console.log(closing[0]);
    } finally {
      // Only when the test failed before it exited.
      running?.kill('SIGKILL');
      proxy.thaw();
      await proxy.close();
      await empty.drop();
    }
  }, 60_000);
});
