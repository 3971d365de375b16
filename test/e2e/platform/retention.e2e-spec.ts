import { SchedulerRegistry } from '@nestjs/schedule';
import { createConnection } from 'mysql2/promise';
import { In } from 'typeorm';
import { DailyStat } from '@/earnings/entities/daily-stat.entity';
import { Click } from '@/tracking/entities/click.entity';
import { Impression } from '@/tracking/entities/impression.entity';
import {
  RETENTION_PURGE_INTERVAL,
  RetentionService,
  SHUTDOWN_WAIT_MS,
} from '@/tracking/retention.service';
import { campaignLink, followAsBrowser } from '@test/support/ads';
import { startTestApp, TestApp } from '@test/support/test-app';
import { createTestDatabase, testDatabaseKind } from '@test/support/test-database';

describe(`retention (${testDatabaseKind()})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ RETENTION_DAYS: '30' });
    // The start-up purge runs in the background; the rows below must not race it.
    await t.app.get(RetentionService).whenIdle();
  });
  afterAll(() => t.close());

  it('deletes impressions older than RETENTION_DAYS with their conversation, keeping the daily totals', async () => {
    const { key, model } = await t.f.publisherWithKey();
    await t.f.campaign({ keywords: 'violin' });
    for (let i = 0; i < 2; i++) {
      await t.fetchAds(key, { conversation: 'private words', context_keywords: 'violin' });
    }
    const impressions = t.dataSource.getRepository(Impression);
    const [old] = await impressions.findBy({ modelId: model.id });
    await impressions.update({ id: old.id }, { createdAt: new Date(Date.now() - 31 * 86_400_000) });

    const purged = await t.app.get(RetentionService).purge();

    expect(purged.impressions).toBe(1);
    expect(await impressions.countBy({ modelId: model.id })).toBe(1);
    const totals = await t.dataSource.getRepository(DailyStat).findBy({ modelId: model.id });
    expect(totals.reduce((sum, row) => sum + row.impressions, 0)).toBe(2);
  });

  it('purges a backlog larger than one DELETE chunk (12,001 rows), in chunks, to the last row', async () => {
    const { model, publisher } = await t.f.publisherWithKey();
    const campaign = await t.f.campaign({ keywords: 'backlog' });
    const old = new Date(Date.now() - 40 * 86_400_000);
    const rows = Array.from({ length: 12_001 }, (_, i) => ({
      id: `backlog-${model.id.slice(0, 8)}-${String(i).padStart(6, '0')}`,
      createdAt: old,
      modelId: model.id,
      publisherId: publisher.id,
      campaignId: campaign.id,
      apiKeyId: null,
      bidMicros: 1,
      revenueSharePpm: 700_000,
      country: null,
      device: null,
      userLocation: null,
      userDeviceInfo: null,
      keywords: 'backlog',
      conversation: 'old private words',
      clickedAt: null,
    }));
    const impressions = t.dataSource.getRepository(Impression);
    for (let i = 0; i < rows.length; i += 500) await impressions.insert(rows.slice(i, i + 500));

    const purged = await t.app.get(RetentionService).purge();

    expect(purged.impressions).toBe(12_001);
    expect(await impressions.countBy({ modelId: model.id })).toBe(0);
  });
});

describe(`retention across a restart (${testDatabaseKind()})`, () => {
  const DAY_MS = 86_400_000;
  // Two app starts on a slow, loaded machine.
  jest.setTimeout(60_000);

  it('purges at start-up: rows older than RETENTION_DAYS lose their conversation text, newer ones keep it', async () => {
    const database = await createTestDatabase();
    try {
      // The first run keeps ten years, so its own purges leave the rows below alone.
      const first = await startTestApp({ RETENTION_DAYS: '3650' }, { database });
      let seeded: Seeded;
      try {
        seeded = await seed(first);
        expect(first.app.get(SchedulerRegistry).getIntervals()).toContain(RETENTION_PURGE_INTERVAL);
      } finally {
        await first.close();
      }

      // The restart keeps 30 days: the 100-day-old rows must go at start-up, not an hour on.
      const second = await startTestApp({ RETENTION_DAYS: '30' }, { database });
      try {
        const impressions = second.dataSource.getRepository(Impression);
        const clicks = second.dataSource.getRepository(Click);
        const { modelId } = seeded;
        // Started by the start-up, in the background: wait for it, not for an hour.
        await second.app.get(RetentionService).whenIdle();
        expect(await impressions.countBy({ modelId })).toBe(2);
        expect(await clicks.countBy({ modelId })).toBe(1);

        // 3 impressions and 2 clicks purged; 2 impressions and 1 click kept, text and all.
        expect(await impressions.countBy({ id: In(seeded.old) })).toBe(0);
        const kept = await impressions.findBy({ modelId });
        expect(kept.map((row) => [row.id, row.conversation]).sort()).toEqual(
          seeded.recent.map((id) => [id, `private words ${id}`]).sort(),
        );
        const keptClicks = await clicks.findBy({ modelId });
        expect(keptClicks.map((click) => click.impressionId)).toEqual([seeded.recentClicked]);
        // The daily roll-ups still count all five impressions and three billed clicks.
        const totals = await second.dataSource.getRepository(DailyStat).findBy({ modelId });
        expect(totals.reduce((sum, row) => sum + row.impressions, 0)).toBe(5);
        expect(totals.reduce((sum, row) => sum + row.clicks, 0)).toBe(3);
      } finally {
        await second.close();
      }
    } finally {
      await database.drop();
    }
  });

  interface Seeded {
    modelId: string;
    /** Impressions dated 100 days back: two clicked (their clicks too), one not. */
    old: string[];
    /** Recent impressions: one clicked, one not. */
    recent: string[];
    recentClicked: string;
  }

  /**
   * Five impressions through fetch-ads, three of them clicked, each given a conversation
   * that names it; then three impressions and two clicks are dated 100 days back.
   */
  async function seed(t: TestApp): Promise<Seeded> {
    const { key, model } = await t.f.publisherWithKey();
    await t.f.campaign({ keywords: 'cello' });
    const links: string[] = [];
    for (let i = 0; i < 5; i++) {
      const response = await t.fetchAds(key, { conversation: 'hello', context_keywords: 'cello' });
      links.push(await campaignLink(response));
    }
    for (const link of links.slice(0, 3)) expect((await followAsBrowser(link)).status).toBe(302);

    const impressions = t.dataSource.getRepository(Impression);
    const clicks = t.dataSource.getRepository(Click);
    const rows = await impressions.findBy({ modelId: model.id });
    expect(rows).toHaveLength(5);
    for (const row of rows) {
      await impressions.update({ id: row.id }, { conversation: `private words ${row.id}` });
    }
    const clicked = new Set(
      (await clicks.findBy({ modelId: model.id })).map((c) => c.impressionId),
    );
    expect(clicked.size).toBe(3);
    const clickedIds = rows.filter((row) => clicked.has(row.id)).map((row) => row.id);
    const unclicked = rows.filter((row) => !clicked.has(row.id)).map((row) => row.id);

    const longAgo = new Date(Date.now() - 100 * DAY_MS);
    const old = [clickedIds[0], clickedIds[1], unclicked[0]];
    await impressions.update({ id: In(old) }, { createdAt: longAgo });
    await clicks.update({ impressionId: In(clickedIds.slice(0, 2)) }, { createdAt: longAgo });
    return {
      modelId: model.id,
      old,
      recent: [clickedIds[2], unclicked[1]],
      recentClicked: clickedIds[2],
    };
  }
});

// Only a MySQL/MariaDB purge can wait on another session's lock while the process goes on;
// better-sqlite3 waits for a lock synchronously, at most DATABASE_TIMEOUT_MS.
if (testDatabaseKind() === 'mysql') {
  describe('retention at shutdown (mysql)', () => {
    it('does not let a purge stuck behind a lock hold up shutdown', async () => {
      const database = await createTestDatabase();
      const other = await createConnection(
        database.config.type === 'mysql' ? database.config.url : '',
      );
      try {
        const t = await startTestApp({ RETENTION_DAYS: '30' }, { database });
        await t.app.get(RetentionService).whenIdle();
        await other.query('LOCK TABLES impressions WRITE');
        void t.app.get(RetentionService).purgeHourly();
        // The purge (its chunk's SELECT or DELETE) is waiting for the lock before shutdown starts.
        const waitingSince = Date.now();
        for (;;) {
          const [rows] = await other.query(
            `SELECT COUNT(*) AS n FROM information_schema.processlist
              WHERE db = DATABASE()
                AND (info LIKE 'DELETE FROM%impressions%' OR info LIKE 'SELECT%FROM%impressions%')`,
          );
          if (Number((rows as { n: number }[])[0].n) > 0) break;
          if (Date.now() - waitingSince > 10_000) throw new Error('the purge never started');
          await new Promise((resolve) => setTimeout(resolve, 50));
        }

        const closing = Date.now();
        await t.close();
        const ms = Date.now() - closing;
        console.log(`shut down ${ms} ms after SIGTERM with a purge waiting on a lock`);
        expect(ms).toBeGreaterThanOrEqual(SHUTDOWN_WAIT_MS - 100);
        expect(ms).toBeLessThan(SHUTDOWN_WAIT_MS + 5000);
      } finally {
        await other.query('UNLOCK TABLES');
        await other.end();
        await database.drop();
      }
    }, 60_000);
  });
}
