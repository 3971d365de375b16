import { createRequire } from 'node:module';
import { createConnection } from 'mysql2/promise';
import { ask, followAsBrowser } from '@test/support/ads';
import { messages, SHUTDOWN_COMPLETE } from '@test/support/shutdown';
import { startDemo } from '@test/support/start-process';
import {
  createTestDatabase,
  testDatabaseKind,
  type TestDatabase,
} from '@test/support/test-database';

/** Each fetch-ads waits this long for its batch: requests are surely in flight at SIGTERM. */
const FLUSH_MS = '300';
const WORKERS = 12;
const LOAD_BEFORE_SIGNAL_MS = 1500;
/** After SIGTERM the service serves this long with readiness 503, then drains and closes. */
const SHUTDOWN_DELAY_MS = 400;

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
    const { service, base, key } = await startDemo({
      DATABASE_URL: db.url,
      IMPRESSION_FLUSH_MS: FLUSH_MS,
      SHUTDOWN_DELAY_MS: String(SHUTDOWN_DELAY_MS),
    });

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
      // Polled closely: the drain can be over in a few tens of milliseconds.
      await new Promise((resolve) => setTimeout(resolve, 2));
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
    // During the delay, with readiness already 503, requests were still served as usual.
    const servedLate = after.filter(
      (o) => normal(o) && o.sentAt - signalledAt >= SHUTDOWN_DELAY_MS / 2,
    );
    expect(servedLate.length).toBeGreaterThan(0);
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
