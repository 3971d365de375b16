import type { EntityManager } from 'typeorm';
import {
  CampaignBillingService,
  type ClickCharge,
} from '@/campaigns/billing/campaign-billing.service';
import { chargeClicks } from '@test/support/billing';
import { Campaign } from '@/campaigns/entities/campaign.entity';
import { Clock } from '@/common/clock';
import { DailyStat } from '@/earnings/entities/daily-stat.entity';
import { Click } from '@/tracking/entities/click.entity';
import { ask, campaignLink, followAsBrowser, withoutClickId } from '@test/support/ads';
import { startTestApp, TestApp } from '@test/support/test-app';
import { testDatabaseKind } from '@test/support/test-database';

/**
 * Click batches carry each click's own time into CampaignBillingService's charges; these tests
 * give them explicit times either side of a UTC midnight (the injected clock), as two click
 * batches committing out of order would.
 */
describe(`daily budget around UTC midnight (${testDatabaseKind()})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());
  // The lock-wait poll below has a generous deadline, for a slow, loaded machine.
  jest.setTimeout(60_000);

  const BID = 1_000_000;
  const clicks = (campaignId: string, at: string, count: number): ClickCharge[] =>
    Array.from({ length: count }, () => ({ campaignId, bidMicros: BID, at: new Date(at) }));
  const chargeIn = (manager: EntityManager, charges: ClickCharge[]) =>
    chargeClicks(t.app.get(CampaignBillingService), manager, charges);
  const chargeBatch = (charges: ClickCharge[]) =>
    t.dataSource.transaction((manager) => chargeIn(manager, charges));

  it('a pre-midnight batch committing after a post-midnight one never lets today pass its cap', async () => {
    const campaign = await t.f.campaign({ bid: '1.00', budgetDaily: '3.00' });
    // Yesterday: 2 of the 3.00 cap spent.
    const yesterday = await chargeBatch(clicks(campaign.id, '2031-03-09T23:58:00.000Z', 2));

    // Two concurrent batches: one holding clicks from just after midnight commits first,
    // then one holding a click from just before midnight that was judged alongside it.
    const { afterMidnight, lateBeforeMidnight } = await twoConcurrentBatches(
      clicks(campaign.id, '2031-03-10T00:00:00.500Z', 2),
      clicks(campaign.id, '2031-03-09T23:59:59.900Z', 1),
    );

    // Today goes on: 3 more clicks, none of which fits today's cap any more.
    const later = await chargeBatch(clicks(campaign.id, '2031-03-10T00:00:01.000Z', 3));

    expect(yesterday.results).toEqual(['billed', 'billed']);
    expect(afterMidnight.results).toEqual(['billed', 'billed']);
    expect(lateBeforeMidnight.results).toEqual(['billed']);
    expect(later.results).toEqual(['over_budget', 'over_budget', 'over_budget']);
    const countedToday = [afterMidnight, lateBeforeMidnight, later]
      .flatMap((batch) => batch.results)
      .filter((result) => result === 'billed').length;
    expect(countedToday).toBe(3);
    const row = await t.dataSource.getRepository(Campaign).findOneByOrFail({ id: campaign.id });
    expect(row).toMatchObject({
      spentDay: '2031-03-10',
      spentTodayMicros: countedToday * BID,
      spentMicros: 5 * BID,
    });
    expect(row.spentTodayMicros).toBeLessThanOrEqual(row.budgetDailyMicros!);
  });

  it('a batch of the earlier day committing first is charged to that day, and the new day starts from zero', async () => {
    const campaign = await t.f.campaign({ bid: '1.00', budgetDaily: '3.00' });
    await chargeBatch(clicks(campaign.id, '2031-04-01T23:59:00.000Z', 3));
    const first = await chargeBatch(clicks(campaign.id, '2031-04-01T23:59:59.999Z', 1));
    const next = await chargeBatch(clicks(campaign.id, '2031-04-02T00:00:00.001Z', 4));

    expect(first.results).toEqual(['over_budget']);
    expect(next.results).toEqual(['billed', 'billed', 'billed', 'over_budget']);
    const row = await t.dataSource.getRepository(Campaign).findOneByOrFail({ id: campaign.id });
    expect(row).toMatchObject({ spentDay: '2031-04-02', spentTodayMicros: 3 * BID });
  });

  it('over HTTP on the injected clock: served before midnight, clicked either side of it', async () => {
    const clock = t.app.get(Clock);
    const realNow = clock.now.bind(clock);
    let now = new Date('2031-05-05T23:59:50.000Z');
    clock.now = () => now;
    try {
      const campaign = await t.f.campaign({
        keywords: 'midnight lantern',
        bid: '1.00',
        budgetDaily: '2.00',
      });
      const { key } = await t.f.publisherWithKey();
      const links: string[] = [];
      for (let i = 0; i < 3; i++) {
        links.push(await campaignLink(await t.fetchAds(key, ask('midnight lantern'))));
      }
      const follow = async (link: string, at: string) => {
        now = new Date(at);
        const response = await followAsBrowser(link);
        expect(response.status).toBe(302);
        expect(withoutClickId(response.headers.get('location'))).toBe(campaign.targetUrl);
      };
      // The first day's cap (2.00) is spent by two clicks just before midnight...
      await follow(links[0], '2031-05-05T23:59:55.000Z');
      await follow(links[1], '2031-05-05T23:59:58.000Z');
      // ...and a third ad served that day, followed after midnight, fits the new day's cap.
      await follow(links[2], '2031-05-06T00:00:05.000Z');

      const clicks = await t.dataSource
        .getRepository(Click)
        .find({ where: { campaignId: campaign.id }, order: { createdAt: 'ASC' } });
      expect(clicks.map((c) => c.status)).toEqual(['billed', 'billed', 'billed']);
      const row = await t.dataSource.getRepository(Campaign).findOneByOrFail({ id: campaign.id });
      expect(row).toMatchObject({
        spentDay: '2031-05-06',
        spentTodayMicros: BID,
        spentMicros: 3 * BID,
      });
      const days = await t.dataSource
        .getRepository(DailyStat)
        .find({ where: { campaignId: campaign.id }, order: { day: 'ASC' } });
      expect(days.map((d) => [d.day, d.impressions, d.clicks, d.spendMicros])).toEqual([
        ['2031-05-05', 3, 2, 2 * BID],
        ['2031-05-06', 0, 1, BID],
      ]);
    } finally {
      clock.now = realNow;
    }
  });

  /**
   * Runs `first` and `second` each in its own transaction. On MySQL/MariaDB they overlap:
   * `second` is started while `first` holds the campaign's row lock, and `first` commits
   * only once `second` is seen waiting for that lock, so the lock orders them. SQLite has a
   * single writer, so there they simply commit one after the other in the same order.
   */
  async function twoConcurrentBatches(first: ClickCharge[], second: ClickCharge[]) {
    if (testDatabaseKind() === 'sqlite') {
      return {
        afterMidnight: await chargeBatch(first),
        lateBeforeMidnight: await chargeBatch(second),
      };
    }
    const firstCharged = deferred<void>();
    const releaseFirst = deferred<void>();
    const secondConnection = deferred<number>();
    const firstDone = t.dataSource.transaction(async (manager) => {
      const result = await chargeIn(manager, first);
      firstCharged.resolve();
      await releaseFirst.promise;
      return result;
    });
    await firstCharged.promise;
    const secondDone = t.dataSource.transaction(async (manager) => {
      const [{ id }] = await manager.query<{ id: number }[]>('SELECT CONNECTION_ID() AS id');
      secondConnection.resolve(Number(id));
      return chargeIn(manager, second);
    });
    try {
      await waitForLockWait(await secondConnection.promise);
    } finally {
      releaseFirst.resolve();
    }
    return { afterMidnight: await firstDone, lateBeforeMidnight: await secondDone };
  }

  /** Polls until the given connection's transaction waits for a row lock (generous deadline). */
  async function waitForLockWait(connectionId: number): Promise<void> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const rows = await t.dataSource.query<{ waiting: string | number }[]>(
        `SELECT COUNT(*) AS waiting FROM information_schema.INNODB_TRX
          WHERE trx_mysql_thread_id = ? AND trx_state = 'LOCK WAIT'`,
        [connectionId],
      );
      if (Number(rows[0].waiting) > 0) return;
      if (Date.now() > deadline) throw new Error('the second batch never waited for the lock');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
});

function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}
