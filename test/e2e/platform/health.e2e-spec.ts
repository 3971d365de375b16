import { connect } from 'node:net';
import { startTestApp, TestApp } from '@test/support/test-app';
import { startTcpProxy } from '@test/support/tcp-proxy';
import { createTestDatabase, testDatabaseKind } from '@test/support/test-database';
import { expectProblem } from '@test/support/problem';

interface Health {
  status: string | number;
  code?: string;
  info: Record<string, { status: string }>;
  error: Record<string, { status: string; message?: string }>;
  details: Record<string, { status: string }>;
}

describe(`health and unknown routes (${testDatabaseKind()})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('reports live and ready while the database answers, naming each check', async () => {
    const live = await t.http('/health/live');
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: 'ok', info: {}, error: {}, details: {} });

    const ready = await t.http('/health/ready');
    expect(ready.status).toBe(200);
    const body = (await ready.json()) as Health;
    expect(body).toMatchObject({ status: 'ok', error: {} });
    expect(Object.keys(body.details).sort()).toEqual(['campaignIndex', 'database', 'shutdown']);
    expect(body.details).toMatchObject({
      shutdown: { status: 'up' },
      database: { status: 'up' },
      campaignIndex: { status: 'up', campaigns: 0 },
    });
  });

  it('answers ready 503 database_unavailable naming the database when it is gone, 200 once back', async () => {
    await t.dataSource.destroy();
    try {
      const response = await t.http('/health/ready');
      await expectProblem(response.clone(), 503, 'database_unavailable');
      expect(response.headers.get('retry-after')).toBe('5');
      const body = (await response.json()) as Health;
      expect(body.status).toBe(503);
      expect(Object.keys(body.error)).toEqual(['database']);
      expect(body.error.database.status).toBe('down');
      expect(body.info).toMatchObject({ shutdown: { status: 'up' } });
      // Liveness is the process, not its dependencies: a restart would not bring them back.
      expect((await t.http('/health/live')).status).toBe(200);
    } finally {
      await t.dataSource.initialize();
    }
    expect((await t.http('/health/ready')).status).toBe(200);
  });

  it('answers an unknown route with a 404 problem', async () => {
    await expectProblem(await t.http('/api/nope'), 404, 'not_found');
  });

  it('keeps a sane caller-supplied x-request-id and replaces an unsafe one', async () => {
    const kept = await t.http('/health/live', { headers: { 'x-request-id': 'abc-123' } });
    expect(kept.headers.get('x-request-id')).toBe('abc-123');
    const replaced = await t.http('/health/live', { headers: { 'x-request-id': 'a b<script>' } });
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe(`readiness while shutting down (${testDatabaseKind()})`, () => {
  it('answers 503 shutting_down naming the shutdown check, liveness still 200', async () => {
    const t = await startTestApp();
    const port = Number(new URL(t.baseUrl).port);
    // A request whose body is held back keeps the drain, and so the server, open.
    const held = connect(port, '127.0.0.1');
    await new Promise((resolve) => held.once('connect', resolve));
    held.write(
      'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 20\r\n\r\n{"email"',
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    const closed = t.close();
    let response = await t.http('/health/ready');
    const started = Date.now();
    while (response.status !== 503) {
      if (Date.now() - started > 10_000) throw new Error('readiness never answered 503');
      response = await t.http('/health/ready');
    }
    await expectProblem(response.clone(), 503, 'shutting_down');
    const body = (await response.json()) as Health;
    expect(Object.keys(body.error)).toEqual(['shutdown']);
    expect(body.error.shutdown).toEqual({ status: 'down', message: 'shutting down' });
    expect(body.info).toMatchObject({ database: { status: 'up' } });
    expect((await t.http('/health/live')).status).toBe(200);

    held.end(':"a@b.c"}');
    await closed;
    held.destroy();
  }, 30_000);
});

// A frozen server is a MariaDB/MySQL matter (SQLite answers in-process).
if (testDatabaseKind() === 'mysql') {
  describe('readiness with a frozen MariaDB/MySQL (through a TCP proxy)', () => {
    it('answers 503 database_unavailable within about 1 s, 200 again once it thaws', async () => {
      const db = await createTestDatabase();
      const server = new URL(db.url.replace(/^mariadb:/, 'mysql:'));
      const proxy = await startTcpProxy({ host: server.hostname, port: Number(server.port) });
      const t = await startTestApp({ DATABASE_URL: proxy.route(db.url) }, { database: db });
      try {
        proxy.freeze();
        const started = Date.now();
        const response = await t.http('/health/ready');
        const ms = Date.now() - started;
        await expectProblem(response.clone(), 503, 'database_unavailable');
        const body = (await response.json()) as Health;
        expect(Object.keys(body.error)).toEqual(['database']);
        expect(ms).toBeLessThan(2000);
        proxy.thaw();
        const thawed = Date.now();
        while ((await t.http('/health/ready')).status !== 200) {
          if (Date.now() - thawed > 15_000) throw new Error('readiness never recovered');
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      } finally {
        proxy.thaw();
        await t.close();
        await proxy.close();
        await db.drop();
      }
    }, 60_000);
  });
}
