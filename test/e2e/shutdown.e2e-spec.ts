import { createRequire } from 'node:module';
import { connect, createServer, type Socket } from 'node:net';
import { createConnection } from 'mysql2/promise';
import { startTcpProxy } from '../support/tcp-proxy';
import { ask, followAsBrowser } from '../support/ads';
import { startMain } from '../support/start-process';
import { expectProblem } from '../support/problem';
import { startTestApp } from '../support/test-app';
import { createTestDatabase, testDatabaseKind, type TestDatabase } from '../support/test-database';

/** Each fetch-ads waits this long for its batch: requests are surely in flight at SIGTERM. */
const FLUSH_MS = '300';
const WORKERS = 12;
const LOAD_BEFORE_SIGNAL_MS = 1500;

interface Outcome {
  kind: 'ad' | 'click';
  sentAt: number;
  status: number | 'no connection';
  /** A 503's content type, code and Retry-After: every one must be our shutting_down. */
  refusal?: { type: string | null; code?: string; retryAfter: string | null };
}

async function refusalOf(response: Response): Promise<Outcome['refusal']> {
  const body = (await response.clone().json()) as { code?: string };
  return {
    type: response.headers.get('content-type'),
    code: body.code,
    retryAfter: response.headers.get('retry-after'),
  };
}
const SHUTTING_DOWN = {
  type: expect.stringContaining('application/problem+json') as string,
  code: 'shutting_down',
  retryAfter: expect.any(String) as string,
};

/** The shutdown's one line: `drained N requests, committed I impressions and C clicks`. */
const SHUTDOWN_COMPLETE =
  /^shutdown complete in \d+\.\d s after SIGTERM: drained (\d+) requests(?: \((\d+) cut off[^)]*\))?, committed (\d+) impressions and (\d+) clicks, connections closed$/;

/** The `msg` of each JSON log line (other lines, such as the demo key, are skipped). */
function messages(stdout: string): string[] {
  return stdout.split('\n').flatMap((line) => {
    try {
      return [(JSON.parse(line) as { msg: string }).msg];
    } catch {
      return [];
    }
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const Sqlite = createRequire(__filename)('better-sqlite3') as new (file: string) => {
  prepare(sql: string): { get(): { n: number } };
  close(): void;
};

/** Rows in a table, read after the service has exited. */
async function countRows(db: TestDatabase, table: string): Promise<number> {
  if (db.config.type === 'sqlite') {
    const file = new Sqlite(db.config.file);
    const { n } = file.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get();
    file.close();
    return n;
  }
  const connection = await createConnection(db.config.url);
  const [rows] = await connection.query(`SELECT COUNT(*) AS n FROM ${table}`);
  await connection.end();
  return Number((rows as { n: number }[])[0].n);
}

describe(`SIGTERM under load (${testDatabaseKind()})`, () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db.drop());

  it('answers every accepted request normally, readiness 503 while draining, loses nothing', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const service = startMain({
      // Development seeds the demo publisher, key and campaigns into the empty database.
      NODE_ENV: 'development',
      PORT: String(port),
      BASE_URL: base,
      DATABASE_URL: db.url,
      IMPRESSION_FLUSH_MS: FLUSH_MS,
      RATE_LIMITS_ENABLED: 'false',
      CLICK_MIN_SECONDS: '0',
    });
    const started = Date.now();
    while (!service.stdout().includes('Fetch an ad:')) {
      if (Date.now() - started > 30_000) throw new Error(`no start-up: ${service.stdout()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const key = /demo API key \(model [^)]+\): (\S+)/.exec(service.stdout())![1];

    const outcomes: Outcome[] = [];
    let stop = false;
    const send = async (kind: Outcome['kind'], request: () => Promise<Response>) => {
      const outcome: Outcome = { kind, sentAt: Date.now(), status: 'no connection' };
      outcomes.push(outcome);
      try {
        const response = await request();
        outcome.status = response.status;
        if (response.status === 503) outcome.refusal = await refusalOf(response);
        return response;
      } catch {
        return null;
      }
    };
    const worker = async () => {
      while (!stop) {
        const response = await send('ad', () =>
          fetch(`${base}/api/fetch-ads`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'service-api-key': key },
            body: JSON.stringify(ask('gpu, machine learning')),
          }),
        );
        if (response?.status !== 200) {
          await new Promise((resolve) => setTimeout(resolve, 20));
          continue;
        }
        const body = (await response.json()) as { advertisements: { campaign_link: string }[] };
        await send('click', () => followAsBrowser(body.advertisements[0].campaign_link));
      }
    };
    const workers = Array.from({ length: WORKERS }, worker);
    await new Promise((resolve) => setTimeout(resolve, LOAD_BEFORE_SIGNAL_MS));

    const signalledAt = Date.now();
    service.kill('SIGTERM');
    const readiness: { status: number; code?: string; type: string | null }[] = [];
    const exited = service.exited.then((result) => {
      stop = true;
      return result;
    });
    while (!stop) {
      try {
        const response = await fetch(`${base}/health/ready`);
        const body = (await response.json()) as { code?: string };
        readiness.push({
          status: response.status,
          code: body.code,
          type: response.headers.get('content-type'),
        });
      } catch {
        // The server has closed its port.
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const { code, signal, stderr } = await exited;
    await Promise.all(workers);

    const before = outcomes.filter((o) => o.sentAt < signalledAt);
    const normal = (o: Outcome) => o.status === (o.kind === 'ad' ? 200 : 302);
    console.log(
      `SIGTERM after ${before.length} requests; ${outcomes.length - before.length} sent after it ` +
        `(${outcomes.filter((o) => o.sentAt >= signalledAt && normal(o)).length} answered normally); ` +
        `readiness while draining: ${readiness.map((r) => r.status).join(' ')}; ` +
        `503s after it: ${outcomes.filter((o) => o.sentAt >= signalledAt && o.status === 503).length}`,
    );
    expect(before.length).toBeGreaterThan(WORKERS);
    expect(before.filter((o) => !normal(o))).toEqual([]);
    // After it: served normally while the drain lasts, then 503 shutting_down (try another
    // instance) or a closed port; never an error.
    const after = outcomes.filter((o) => o.sentAt >= signalledAt);
    expect(
      after.filter((o) => !normal(o) && o.status !== 503 && o.status !== 'no connection'),
    ).toEqual([]);
    for (const refused of after.filter((o) => o.status === 503)) {
      expect(refused.refusal).toEqual(SHUTTING_DOWN);
    }
    expect(readiness).toContainEqual({
      status: 503,
      code: 'shutting_down',
      type: expect.stringContaining('application/problem+json') as string,
    });
    expect(readiness.filter((r) => r.status !== 503 && r.status !== 200)).toEqual([]);
    for (const refused of readiness.filter((r) => r.status === 503)) {
      expect(refused).toEqual({
        status: 503,
        code: 'shutting_down',
        type: expect.stringContaining('application/problem+json') as string,
      });
    }
    // It ends by itself, exit code 0, within SHUTDOWN_TIMEOUT_SECONDS (10 by default), with
    // one line saying what it did.
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(Date.now() - signalledAt).toBeLessThan(10_000);
    expect(stderr).toBe('');
    const closing = messages(service.stdout()).filter((m) => m.startsWith('shutdown'));
    expect(closing).toEqual([expect.stringMatching(SHUTDOWN_COMPLETE) as string]);
    const [, drained, , committedImpressions] = SHUTDOWN_COMPLETE.exec(closing[0])!;
    // Fetch-ads calls in flight at the signal waited for their batch, committed after it.
    expect(Number(drained)).toBeGreaterThan(0);
    expect(Number(committedImpressions)).toBeGreaterThan(0);
    console.log(closing[0]);

    // Every impression and click answered was committed before the process ended.
    const ads = outcomes.filter((o) => o.kind === 'ad' && o.status === 200).length;
    const clicks = outcomes.filter((o) => o.kind === 'click' && o.status === 302).length;
    expect(await countRows(db, 'impressions')).toBe(ads);
    expect(await countRows(db, 'clicks')).toBe(clicks);
  }, 90_000);
});

/** A raw connection, to hold a request half sent and to pipeline another behind it. */
function openRaw(port: number): Promise<{ socket: Socket; received: () => string }> {
  return new Promise((resolve, reject) => {
    let data = '';
    const socket = connect(port, '127.0.0.1', () => resolve({ socket, received: () => data }));
    socket.on('data', (chunk: Buffer) => (data += chunk.toString('utf8')));
    socket.on('error', reject);
  });
}

/** Splits the HTTP/1.1 answers received on one connection (each with a Content-Length). */
function splitAnswers(text: string): { status: number; headers: Headers; body: string }[] {
  const answers = [];
  let rest = text;
  while (rest.startsWith('HTTP/1.1 ')) {
    const end = rest.indexOf('\r\n\r\n');
    const [statusLine, ...lines] = rest.slice(0, end).split('\r\n');
    const headers = new Headers(
      lines.map((line) => [
        line.slice(0, line.indexOf(':')),
        line.slice(line.indexOf(':') + 1).trim(),
      ]),
    );
    const length = Number(headers.get('content-length') ?? 0);
    answers.push({
      status: Number(statusLine.split(' ')[1]),
      headers,
      body: rest.slice(end + 4, end + 4 + length),
    });
    rest = rest.slice(end + 4 + length);
  }
  return answers;
}

const refused = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.destroy();
      resolve(false);
    });
    socket.on('error', () => resolve(true));
  });

describe(`a request arriving while the server closes (${testDatabaseKind()})`, () => {
  it('is answered 503 shutting_down as problem+json, while earlier ones get their normal answer', async () => {
    const t = await startTestApp();
    const port = Number(new URL(t.baseUrl).port);
    const login = JSON.stringify({ email: 'nobody@example.test', password: 'not the password' });
    const head = `POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${login.length}\r\n\r\n`;
    const half = login.slice(0, 10);

    // In flight at the signal: its body is held back, so shutdown waits for it.
    const early = await openRaw(port);
    early.socket.write(head + half);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const closed = t.close();
    const draining = Date.now();
    while ((await t.http('/health/ready')).status !== 503) {
      if (Date.now() - draining > 10_000) throw new Error('readiness never answered 503');
    }
    // Sent while the drain lasts, also held back, so the server cannot close this connection.
    const late = await openRaw(port);
    late.socket.write(head + half);
    await new Promise((resolve) => setTimeout(resolve, 200));

    // The early request finishes: the drain is over and the server closes.
    early.socket.write(login.slice(10));
    const closing = Date.now();
    while (!(await refused(port))) {
      if (Date.now() - closing > 15_000) throw new Error('the server never stopped listening');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    // Fastify still reads the open connection: the late request, then one pipelined behind it.
    late.socket.write(login.slice(10) + 'GET /health/live HTTP/1.1\r\nHost: x\r\n\r\n');
    await new Promise((resolve) => late.socket.on('close', resolve));
    await closed;

    const [earlyAnswer] = splitAnswers(early.received());
    const [lateAnswer, refusedAnswer] = splitAnswers(late.received());
    expect(earlyAnswer.status).toBe(401);
    expect(lateAnswer.status).toBe(401);
    const problem = new Response(refusedAnswer.body, {
      status: refusedAnswer.status,
      headers: refusedAnswer.headers,
    });
    await expectProblem(problem, 503, 'shutting_down');
    expect(refusedAnswer.headers.get('retry-after')).toBe('5');
    expect(refusedAnswer.headers.get('x-request-id')).toBeTruthy();
    expect(refusedAnswer.headers.get('cache-control')).toBe('no-store');
    expect(refusedAnswer.headers.get('x-content-type-options')).toBe('nosniff');
  }, 60_000);
});

/** Starts the service (development: demo data) and waits for its demo API key. */
async function startDemo(env: Record<string, string>) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const service = startMain({
    NODE_ENV: 'development',
    PORT: String(port),
    BASE_URL: base,
    RATE_LIMITS_ENABLED: 'false',
    CLICK_MIN_SECONDS: '0',
    ...env,
  });
  const started = Date.now();
  while (!service.stdout().includes('Fetch an ad:')) {
    if (Date.now() - started > 30_000) throw new Error(`no start-up: ${service.stdout()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const key = /demo API key \(model [^)]+\): (\S+)/.exec(service.stdout())![1];
  return { service, port, base, key };
}

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
