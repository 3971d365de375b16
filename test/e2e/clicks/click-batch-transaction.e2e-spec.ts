import { Connection } from 'mysql2';
import { Campaign } from '@/campaigns/entities/campaign.entity';
import { DailyStat } from '@/earnings/entities/daily-stat.entity';
import { LedgerEntry } from '@/earnings/entities/ledger-entry.entity';
import { ClickRecorder } from '@/tracking/click-recorder.service';
import { ClicksRepository } from '@/tracking/clicks.repository';
import { Click } from '@/tracking/entities/click.entity';
import { Impression } from '@/tracking/entities/impression.entity';
import { ask, campaignLink, followAsBrowser } from '@test/support/ads';
import { startTestApp, TestApp } from '@test/support/test-app';
import { testDatabaseKind } from '@test/support/test-database';

const BID = 500_000;

/** A command mysql2 sends: each one is a round trip on its connection. */
interface Sent {
  connection: number | null;
  command: string;
  sql: string;
}

/**
 * Every command mysql2 sends while `during` runs, on any connection of the process (the
 * pools' connections share the class; its `addCommand` is where each command is queued).
 */
async function sentDuring(during: () => Promise<void>): Promise<Sent[]> {
  const proto = (Connection as unknown as { prototype: { addCommand(command: unknown): unknown } })
    .prototype;
  const addCommand = proto.addCommand;
  const sent: Sent[] = [];
  proto.addCommand = function (this: { threadId: number | null }, command: unknown) {
    const { sql } = command as { sql?: string };
    sent.push({
      connection: this.threadId,
      command: (command as object).constructor.name,
      sql: sql ?? '',
    });
    return addCommand.call(this, command);
  };
  try {
    await during();
  } finally {
    proto.addCommand = addCommand;
  }
  return sent;
}

/**
 * A click batch's transaction on MySQL: its reads in one round trip, its writes and COMMIT in
 * one more, on one connection; and a failure in that last round trip, part-way through its
 * statements, leaves nothing of the batch behind.
 */
describe(`a click batch's transaction (${testDatabaseKind()})`, () => {
  let t: TestApp;
  // Round trips exist on MySQL only: there these tests are defined, as the repository's other
  // MySQL-only specs are (nothing reported skipped on SQLite; the MariaDB pass runs them).
  const onMysql: typeof it.only =
    testDatabaseKind() === 'mysql' ? it : ((() => undefined) as unknown as typeof it.only);

  beforeAll(async () => {
    // Concurrent follows wait 200 ms for each other, so they share one batch.
    t = await startTestApp({ CLICK_FLUSH_MS: '200' });
  });
  afterAll(() => t.close());

  /** A campaign with room for `clicks` billed clicks, and that many of its tracking links. */
  async function linksOf(keyword: string, clicks: number) {
    const campaign = await t.f.campaign({ keywords: keyword, bid: '0.50', budgetTotal: '100' });
    const publisher = await t.f.publisherWithKey();
    const links: string[] = [];
    for (let i = 0; i < clicks; i++)
      links.push(await campaignLink(await t.fetchAds(publisher.key, ask(keyword))));
    return { campaign, links };
  }

  /** Follows every link at once (one batch); every follow is redirected. */
  async function followAll(links: string[]): Promise<void> {
    const responses = await Promise.all(links.map((link) => followAsBrowser(link)));
    expect(responses.map((r) => r.status)).toEqual(links.map(() => 302));
  }

  /** Each of `n` clicks billed once: spend, ledger, roll-up and impressions agree. */
  async function expectBilledOnce(campaignId: string, n: number): Promise<void> {
    const clicks = await t.dataSource.getRepository(Click).findBy({ campaignId });
    expect(clicks.map((c) => c.status)).toEqual(clicks.map(() => 'billed'));
    expect(clicks).toHaveLength(n);
    const campaign = await t.dataSource.getRepository(Campaign).findOneByOrFail({ id: campaignId });
    expect(campaign.spentMicros).toBe(n * BID);
    const ledger = await t.dataSource.getRepository(LedgerEntry).findBy({ campaignId });
    expect(ledger).toHaveLength(3 * n);
    const sum = (account: string) =>
      ledger.filter((e) => e.account === account).reduce((s, e) => s + e.amountMicros, 0);
    expect(sum('campaign_spend')).toBe(n * BID);
    expect(sum('publisher_earnings') + sum('platform_revenue')).toBe(n * BID);
    const stats = await t.dataSource.getRepository(DailyStat).findBy({ campaignId });
    expect(stats.reduce((s, row) => s + row.clicks, 0)).toBe(n);
    expect(stats.reduce((s, row) => s + row.spendMicros, 0)).toBe(n * BID);
    expect(stats.reduce((s, row) => s + row.earningsMicros, 0)).toBe(sum('publisher_earnings'));
    expect(clicks.reduce((s, c) => s + c.publisherEarningsMicros, 0)).toBe(
      sum('publisher_earnings'),
    );
    const impressions = await t.dataSource.getRepository(Impression).findBy({ campaignId });
    expect(impressions.filter((i) => i.clickedAt !== null)).toHaveLength(n);
  }

  onMysql(
    'sends the reads in one round trip and every write with the COMMIT in one more',
    async () => {
      const { campaign, links } = await linksOf('round trips', 3);
      const batches = t.app.get(ClickRecorder).stats.batches;

      const sent = await sentDuring(() => followAll(links));

      expect(t.app.get(ClickRecorder).stats.batches - batches).toBe(1);
      const tail = sent.find((s) => s.sql.includes('INSERT INTO clicks'));
      expect(tail).toBeDefined();
      const onBatchConnection = sent.filter(
        (s) => s.connection === tail!.connection && s.command !== 'ClientHandshake',
      );
      const statements = (s: Sent) => s.sql.split(';\n').map((text) => text.trim().split(/\s+/));
      expect(onBatchConnection.map((s) => s.command)).toEqual(['Query', 'Query']);
      const [reads, writes] = onBatchConnection.map(statements);
      // START TRANSACTION, then the locking reads (impressions, the IPs' clicks, budgets).
      expect(reads.map((words) => words.slice(0, 2).join(' '))).toEqual([
        'START TRANSACTION',
        'SELECT id,',
        "SELECT 'publisher'",
        'SELECT ip_hash,',
        'SELECT id,',
      ]);
      expect(writes.map((words) => words.slice(0, 3).join(' '))).toEqual([
        'UPDATE campaigns SET',
        'UPDATE impressions SET',
        'INSERT INTO ledger_entries',
        'INSERT INTO daily_stats',
        'INSERT INTO clicks',
        'COMMIT',
      ]);
      await expectBilledOnce(campaign.id, 3);
    },
  );

  onMysql(
    'runs a batch whose writes deadlock part-way again whole: nothing of the failed attempt stays, each click is billed once',
    async () => {
      const { campaign, links } = await linksOf('deadlock', 3);
      // The clicks' insert, after the spend, the impressions and the roll-ups were written,
      // fails once as a deadlock: the row that says so is in a table no rollback restores.
      await t.dataSource.query('CREATE TABLE injected_failures (n INT) ENGINE=MyISAM');
      await t.dataSource.query('INSERT INTO injected_failures VALUES (1)');
      await t.dataSource.query(
        `CREATE TRIGGER clicks_fail_once BEFORE INSERT ON clicks FOR EACH ROW
         BEGIN
           IF (SELECT COUNT(*) FROM injected_failures) > 0 THEN
             DELETE FROM injected_failures;
             SIGNAL SQLSTATE '40001' SET MYSQL_ERRNO = 1213, MESSAGE_TEXT = 'injected deadlock';
           END IF;
         END`,
      );
      const batches = t.app.get(ClickRecorder).stats.batches;
      try {
        const sent = await sentDuring(() => followAll(links));

        const tails = sent.filter((s) => s.sql.includes('INSERT INTO clicks'));
        expect(tails).toHaveLength(2);
        expect(sent.filter((s) => s.sql === 'ROLLBACK')).toHaveLength(1);
      } finally {
        await t.dataSource.query('DROP TRIGGER clicks_fail_once');
        await t.dataSource.query('DROP TABLE injected_failures');
      }
      // Retried as one batch, not split into clicks written one by one.
      expect(t.app.get(ClickRecorder).stats.batches - batches).toBe(1);
      await expectBilledOnce(campaign.id, 3);
    },
  );

  it('commits nothing of a batch whose writes fail part-way; its clicks are then recorded one by one, each billed once', async () => {
    const { campaign, links } = await linksOf('part way', 3);
    const clicks = t.app.get(ClicksRepository);
    // The batch's last write (after the spend, the impressions and the roll-ups) fails.
    const insert = jest.spyOn(clicks, 'insertStatement').mockImplementationOnce(() => ({
      sql: 'INSERT INTO clicks (no_such_column) VALUES (?)',
      parameters: [1],
    }));
    const batches = t.app.get(ClickRecorder).stats.batches;
    try {
      await followAll(links);
    } finally {
      insert.mockRestore();
    }
    // The failed batch is not counted; its three clicks are, each in a batch of its own.
    expect(t.app.get(ClickRecorder).stats.batches - batches).toBe(3);
    await expectBilledOnce(campaign.id, 3);
  });
});
