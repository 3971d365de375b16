import { createRequire } from 'node:module';
import { DataSource } from 'typeorm';
import { CampaignsService } from '@/campaigns/campaigns/campaigns.service';
import { ClickRecorder } from '@/tracking/click-recorder.service';
import { Click } from '@/tracking/entities/click.entity';
import { DatabaseUnavailableError } from '@/database/database-errors';
import { createPoolWithDeadlines } from '@/database/mysql-deadlines';
import { LedgerEntry } from '@/earnings/entities/ledger-entry.entity';
import { ask, campaignLink, followAsBrowser, withoutClickId } from '@test/support/ads';
import { expectProblem } from '@test/support/problem';
import { startTcpProxy, type TcpProxy } from '@test/support/tcp-proxy';
import { startTestApp, type TestApp } from '@test/support/test-app';
import {
  createTestDatabase,
  testDatabaseKind,
  type TestDatabase,
} from '@test/support/test-database';
import { CampaignIndexService } from '@/campaign-index/campaign-index.service';

/** What a person or a publisher waits at most, however the database behaves. */
const ANSWER_WITHIN_MS = 2000;
/** How long the database stays stalled, as in the report (mariadbd SIGSTOPped for 8 s). */
const STALL_MS = 8000;
/** Clicks waiting in their batch are written within the group commit's retries (~30 s). */
const CLICK_COMMITTED_WITHIN_MS = 45_000;

const ENV = { CLICK_MIN_SECONDS: '0', API_KEY_CACHE_SECONDS: '300' };

async function timed<T>(work: Promise<T>): Promise<{ value: T; ms: number }> {
  const started = Date.now();
  const value = await work;
  return { value, ms: Date.now() - started };
}

/** Polls `check` until it holds; fails after `deadlineMs`. */
async function eventually(check: () => Promise<boolean>, deadlineMs: number): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > deadlineMs) throw new Error(`not within ${deadlineMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return Date.now() - started;
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Counts that prove a click was recorded once and billed once. */
async function billing(dataSource: DataSource, campaignId: string) {
  const clicks = await dataSource.getRepository(Click).findBy({ campaignId });
  const spend = await dataSource
    .getRepository(LedgerEntry)
    .findBy({ campaignId, account: 'campaign_spend' });
  return {
    clicks: clicks.length,
    billed: clicks.filter((c) => c.status === 'billed').length,
    spend,
  };
}

// A frozen or stopped server is a MySQL/MariaDB matter; SQLite's stall is a lock another
// process holds. Each run proves the one its database can have.
if (testDatabaseKind() === 'mysql') describeMysqlStalls();
else describeSqliteLock();

function describeMysqlStalls(): void {
  describe('a stalled or stopped MariaDB/MySQL (through a TCP proxy)', () => {
    let db: TestDatabase;
    let proxy: TcpProxy;
    let t: TestApp;

    beforeAll(async () => {
      db = await createTestDatabase();
      const server = new URL(db.url.replace(/^mariadb:/, 'mysql:'));
      proxy = await startTcpProxy({ host: server.hostname, port: Number(server.port || 3306) });
      t = await startTestApp({
        ...ENV,
        DATABASE_URL: proxy.route(db.url),
        // Shorter than the freeze: the statements it holds are dropped and their batches
        // written again (the click) or given up (the impression the caller got no ad for).
        DATABASE_QUERY_TIMEOUT_MS: '3000',
      });
    });
    afterAll(async () => {
      proxy.thaw();
      await proxy.up().catch(() => undefined);
      await t.close();
      await proxy.close();
      await db.drop();
    });

    it('answers 503 in time while frozen, redirects clicks, and recovers when it thaws', async () => {
      const campaign = await t.f.campaign({ keywords: 'frozen lake', bid: '0.5' });
      const served = await t.f.publisherWithKey();
      const unused = await t.f.publisherWithKey();
      const link = await campaignLink(await t.fetchAds(served.key, ask('frozen lake')));

      proxy.freeze();
      const frozenAt = Date.now();
      const [ready, ad, uncachedKey, click] = await Promise.all([
        timed(t.http('/health/ready')),
        timed(t.fetchAds(served.key, ask('frozen lake'))),
        timed(t.fetchAds(unused.key, ask('frozen lake'))),
        timed(followAsBrowser(link)),
      ]);

      await expectProblem(ready.value, 503, 'database_unavailable');
      expect(ready.ms).toBeLessThan(ANSWER_WITHIN_MS);
      for (const fetched of [ad, uncachedKey]) {
        await expectProblem(fetched.value, 503, 'database_unavailable');
        expect(fetched.value.headers.get('retry-after')).toBe('5');
        expect(fetched.ms).toBeLessThan(ANSWER_WITHIN_MS);
      }
      expect(click.value.status).toBe(302);
      expect(withoutClickId(click.value.headers.get('location'))).toBe(campaign.targetUrl);
      expect(click.ms).toBeLessThan(ANSWER_WITHIN_MS);

      await wait(STALL_MS - (Date.now() - frozenAt));
      proxy.thaw();
      const recovery = await eventually(
        async () => (await t.http('/health/ready')).status === 200,
        10_000,
      );
      const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
      console.log(
        `MariaDB frozen for ${seconds(STALL_MS)}: readiness 503 after ${seconds(ready.ms)}, ` +
          `fetch-ads 503 after ${seconds(ad.ms)} (${seconds(uncachedKey.ms)} with an uncached key), ` +
          `click redirected after ${seconds(click.ms)}; readiness 200 again ${seconds(recovery)} after the thaw`,
      );

      expect((await t.fetchAds(served.key, ask('frozen lake'))).status).toBe(200);
      // The click waited in its batch and is committed once, billed once.
      await eventually(
        async () => (await billing(t.dataSource, campaign.id)).clicks === 1,
        CLICK_COMMITTED_WITHIN_MS,
      );
      const after = await billing(t.dataSource, campaign.id);
      expect(after.billed).toBe(1);
      expect(after.spend).toHaveLength(1);
    }, 90_000);

    it('answers a click on a campaign no longer served 503 in time while frozen, never a redirect', async () => {
      const campaign = await t.f.campaign({ keywords: 'paused pond', bid: '0.5' });
      const { key } = await t.f.publisherWithKey();
      const link = await campaignLink(await t.fetchAds(key, ask('paused pond')));
      await t.app.get(CampaignsService).updateCampaign(campaign.id, { status: 'paused' });
      expect(t.app.get(CampaignIndexService).served(campaign.id)).toBeFalsy();

      proxy.freeze();
      try {
        const click = await timed(followAsBrowser(link));
        await expectProblem(click.value, 503, 'database_unavailable');
        expect(click.value.headers.get('retry-after')).toBe('5');
        expect(click.value.headers.get('location')).toBeNull();
        expect(click.ms).toBeLessThan(ANSWER_WITHIN_MS);
      } finally {
        proxy.thaw();
      }
      // Once the database answers, the same link redirects to the campaign's own URL.
      const later = await followAsBrowser(link);
      expect(later.status).toBe(302);
      expect(withoutClickId(later.headers.get('location'))).toBe(campaign.targetUrl);
    }, 60_000);

    it('answers a click batch whose COMMIT landed unseen from the stored row: billed once, not lost', async () => {
      const campaign = await t.f.campaign({ keywords: 'unseen commit', bid: '0.5' });
      const { key } = await t.f.publisherWithKey();
      const link = await campaignLink(await t.fetchAds(key, ask('unseen commit')));
      const recorder = t.app.get(ClickRecorder);
      const before = recorder.stats;

      proxy.loseAnswerTo('INSERT INTO clicks', 'COMMIT');
      const click = await followAsBrowser(link);
      expect(click.status).toBe(302);
      expect(withoutClickId(click.headers.get('location'))).toBe(campaign.targetUrl);
      // The COMMIT's answer never comes: its statement deadline (3 s) drops the connection,
      // then the batch is looked up before being written again, and found committed.
      await eventually(
        () =>
          Promise.resolve(
            recorder.stats.clicks > before.clicks || recorder.stats.lost > before.lost,
          ),
        CLICK_COMMITTED_WITHIN_MS,
      );
      expect(recorder.stats.lost).toBe(before.lost);
      expect(recorder.stats.clicks - before.clicks).toBe(1);
      const after = await billing(t.dataSource, campaign.id);
      expect(after).toMatchObject({ clicks: 1, billed: 1 });
      expect(after.spend).toHaveLength(1);
    }, 60_000);

    it('drops a connection whose statement goes unanswered, and never hands it out again', async () => {
      const pool = createPoolWithDeadlines(
        { uri: proxy.route(db.url).replace(/^mariadb:/, 'mysql:'), connectionLimit: 1 },
        { acquireMs: 500, queryMs: 1000 },
      ).promise();
      try {
        await pool.query('SELECT 1');
        proxy.freeze();
        const stalled = await timed(pool.query('SELECT 1').catch((error: unknown) => error));
        expect(stalled.value).toBeInstanceOf(DatabaseUnavailableError);
        expect(stalled.ms).toBeLessThan(ANSWER_WITHIN_MS);
        // The only connection is gone, so the next caller waits for a new one: in vain.
        const queued = await timed(pool.query('SELECT 1').catch((error: unknown) => error));
        expect(queued.value).toBeInstanceOf(DatabaseUnavailableError);
        expect(queued.ms).toBeLessThan(ANSWER_WITHIN_MS);
        proxy.thaw();
        const [rows] = await pool.query('SELECT 2 AS two');
        expect(rows).toEqual([{ two: 2 }]);
      } finally {
        proxy.thaw();
        await pool.end();
      }
    });

    it('answers 503 database_unavailable at once while the server is down, then recovers', async () => {
      await t.f.campaign({ keywords: 'closed shop', bid: '0.5' });
      const { key } = await t.f.publisherWithKey();
      expect((await t.fetchAds(key, ask('closed shop'))).status).toBe(200);

      await proxy.down();
      const ad = await timed(t.fetchAds(key, ask('closed shop')));
      await expectProblem(ad.value, 503, 'database_unavailable');
      expect(ad.value.headers.get('retry-after')).toBe('5');
      expect(ad.ms).toBeLessThan(ANSWER_WITHIN_MS);
      await expectProblem(await t.http('/health/ready'), 503, 'database_unavailable');

      await proxy.up();
      await eventually(async () => (await t.http('/health/ready')).status === 200, 10_000);
      expect((await t.fetchAds(key, ask('closed shop'))).status).toBe(200);
    }, 60_000);
  });
}

/** better-sqlite3, as TypeORM loads it (the package ships no types). */
interface SqliteFile {
  exec(sql: string): void;
  close(): void;
}
const Sqlite = createRequire(__filename)('better-sqlite3') as new (file: string) => SqliteFile;

function describeSqliteLock(): void {
  describe('a SQLite database another process holds locked', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp(ENV);
    });
    afterAll(() => t.close());

    it('answers fetch-ads 503 in time, redirects clicks, and bills them once the lock is gone', async () => {
      const campaign = await t.f.campaign({ keywords: 'locked door', bid: '0.5' });
      const { key } = await t.f.publisherWithKey();
      const link = await campaignLink(await t.fetchAds(key, ask('locked door')));
      const file = (t.config.database as { file: string }).file;

      const other = new Sqlite(file);
      other.exec('BEGIN EXCLUSIVE');
      try {
        const ad = await timed(t.fetchAds(key, ask('locked door')));
        await expectProblem(ad.value, 503, 'database_unavailable');
        expect(ad.value.headers.get('retry-after')).toBe('5');
        expect(ad.ms).toBeLessThan(ANSWER_WITHIN_MS);

        const click = await timed(followAsBrowser(link));
        expect(click.value.status).toBe(302);
        expect(click.ms).toBeLessThan(ANSWER_WITHIN_MS);
        console.log(
          `SQLite locked by another process: fetch-ads 503 after ${ad.ms} ms, ` +
            `click redirected after ${click.ms} ms`,
        );
      } finally {
        other.exec('ROLLBACK');
        other.close();
      }

      expect((await t.fetchAds(key, ask('locked door'))).status).toBe(200);
      await eventually(
        async () => (await billing(t.dataSource, campaign.id)).clicks === 1,
        CLICK_COMMITTED_WITHIN_MS,
      );
      const after = await billing(t.dataSource, campaign.id);
      expect(after.billed).toBe(1);
      expect(after.spend).toHaveLength(1);
    }, 60_000);
  });
}
