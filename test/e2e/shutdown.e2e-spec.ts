import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { createConnection } from 'mysql2/promise';
import { ask, followAsBrowser } from '../support/ads';
import { startMain } from '../support/start-process';
import { createTestDatabase, testDatabaseKind, type TestDatabase } from '../support/test-database';

/** Each fetch-ads waits this long for its batch: requests are surely in flight at SIGTERM. */
const FLUSH_MS = '300';
const WORKERS = 12;
const LOAD_BEFORE_SIGNAL_MS = 1500;

interface Outcome {
  kind: 'ad' | 'click';
  sentAt: number;
  status: number | 'no connection';
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
    const readiness: { status: number; code?: string }[] = [];
    const exited = service.exited.then((result) => {
      stop = true;
      return result;
    });
    while (!stop) {
      try {
        const response = await fetch(`${base}/health/ready`);
        const body = (await response.json()) as { code?: string };
        readiness.push({ status: response.status, code: body.code });
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
        `readiness while draining: ${readiness.map((r) => r.status).join(' ')}`,
    );
    expect(before.length).toBeGreaterThan(WORKERS);
    expect(before.filter((o) => !normal(o))).toEqual([]);
    // After it: served normally while the drain lasts, then Fastify's 503 (try another
    // instance) or a closed port; never an error.
    const after = outcomes.filter((o) => o.sentAt >= signalledAt);
    expect(
      after.filter((o) => !normal(o) && o.status !== 503 && o.status !== 'no connection'),
    ).toEqual([]);
    expect(readiness).toContainEqual({ status: 503, code: 'shutting_down' });
    expect(readiness.filter((r) => r.status !== 503 && r.status !== 200)).toEqual([]);
    expect(signal === 'SIGTERM' || code === 0).toBe(true);
    expect(stderr).toBe('');

    // Every impression and click answered was committed before the process ended.
    const ads = outcomes.filter((o) => o.kind === 'ad' && o.status === 200).length;
    const clicks = outcomes.filter((o) => o.kind === 'click' && o.status === 302).length;
    expect(await countRows(db, 'impressions')).toBe(ads);
    expect(await countRows(db, 'clicks')).toBe(clicks);
  }, 90_000);
});
