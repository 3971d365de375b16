import { Logger } from '@nestjs/common';
import type { CampaignChangeNotifier } from '@/campaigns/change-notices/campaign-change-notifier.service';
import type {
  ServabilityProbe,
  ServableCampaign,
  ServableCampaignsReader,
  SnapshotFacts,
} from '@/campaigns/campaigns/servable-campaigns.reader';
import type { AppConfig } from '@/config/app-config';
import { MetricsService } from '@/metrics/metrics.service';
import { CampaignIndexService } from './campaign-index.service';

function servable(id: string, keyword: string, bidMicros: number): ServableCampaign {
  return {
    id,
    advertiserId: 'advertiser-1',
    name: id,
    text: 'An ad',
    imageUrl: null,
    targetUrl: `https://advertiser.example/${id}`,
    clickIdParam: 'adl_click',
    category: null,
    keywords: [keyword],
    countries: [],
    devices: [],
    bidMicros,
    createdAt: new Date('2025-01-01T00:00:00Z'),
  };
}

/** A database whose snapshot read can be held half way, and whose probe is set by hand. */
class FakeSnapshots {
  campaigns: ServableCampaign[] = [];
  probed: ServabilityProbe = { exhausted: 0, other: 'a' };
  reads = 0;
  /** How many of the next reads fail, as a database that has gone away would. */
  failures = 0;
  /** When set, the read waits for it after handing over the first campaign. */
  hold: Promise<void> | null = null;

  probe(): Promise<ServabilityProbe> {
    return Promise.resolve({ ...this.probed });
  }

  async readServable(
    _now: Date,
    consume: (batch: ServableCampaign[]) => Promise<void>,
  ): Promise<SnapshotFacts> {
    this.reads++;
    if (this.failures > 0) {
      this.failures--;
      throw new Error('snapshot read failed');
    }
    const [first, ...rest] = this.campaigns;
    if (first) await consume([first]);
    if (this.hold) await this.hold;
    await consume(rest);
    return { nextScheduleChange: null };
  }
}

/** What CampaignChangeNotifier does for this instance's listeners (no Redis). */
class FakeChanges {
  exhaustedListeners: ((id: string) => void)[] = [];
  changeListeners: (() => Promise<void>)[] = [];
  onChange(listener: () => Promise<void>): void {
    this.changeListeners.push(listener);
  }
  /** What CampaignChangeNotifier does after a committed change. */
  async notifyChanged(): Promise<void> {
    for (const listener of this.changeListeners) await listener();
  }
  onExhausted(listener: (id: string) => void): void {
    this.exhaustedListeners.push(listener);
  }
  notifyExhausted(id: string): void {
    this.exhaustedListeners.forEach((listener) => listener(id));
  }
}

function setUp() {
  const snapshots = new FakeSnapshots();
  const campaigns = new FakeChanges();
  const service = new CampaignIndexService(
    campaigns as unknown as CampaignChangeNotifier,
    snapshots as unknown as ServableCampaignsReader,
    { campaignIndexRefreshMs: 3_600_000 } as AppConfig,
    new MetricsService(),
  );
  const winner = () =>
    service.current.match({ keywords: ['ai'], conversation: '', country: null, device: null })
      ?.campaign.id;
  return { snapshots, campaigns, service, winner };
}

describe('CampaignIndexService', () => {
  it('drops a campaign whose budget ran out at once: the next best wins and clicks no longer find it', async () => {
    const { snapshots, campaigns, service, winner } = setUp();
    snapshots.campaigns = [servable('dear', 'ai', 3_000_000), servable('cheap', 'ai', 1_000_000)];
    await service.rebuild();
    expect(winner()).toBe('dear');
    expect(service.served('dear')?.targetUrl).toBe('https://advertiser.example/dear');

    campaigns.notifyExhausted('dear');

    expect(winner()).toBe('cheap');
    expect(service.served('dear')).toBeUndefined();
    expect(snapshots.reads).toBe(1);
  });

  it('keeps a campaign excluded while a rebuild that read it before the notice finishes', async () => {
    const { snapshots, campaigns, service, winner } = setUp();
    snapshots.campaigns = [servable('dear', 'ai', 3_000_000), servable('cheap', 'ai', 1_000_000)];
    await service.rebuild();
    let release = () => {};
    snapshots.hold = new Promise<void>((resolve) => (release = resolve));
    const rebuilding = service.rebuild();
    // The read has handed over 'dear' and is still going when its budget runs out.
    await new Promise<void>((resolve) => setImmediate(resolve));
    campaigns.notifyExhausted('dear');
    release();
    await rebuilding;

    expect(winner()).toBe('cheap');
    expect(service.served('dear')).toBeUndefined();
  });

  it('serves a campaign again when a rebuild that began after its exclusion reads it as servable', async () => {
    const { snapshots, campaigns, service, winner } = setUp();
    snapshots.campaigns = [servable('dear', 'ai', 3_000_000), servable('cheap', 'ai', 1_000_000)];
    await service.rebuild();
    campaigns.notifyExhausted('dear');
    // Say an operator raised its budget: the change rebuilds from a fresh snapshot.
    await service.rebuild();
    expect(winner()).toBe('dear');
  });

  it('skips the periodic rebuild while the probe shows only the exclusions it was told of', async () => {
    const { snapshots, campaigns, service } = setUp();
    snapshots.campaigns = [servable('dear', 'ai', 3_000_000), servable('cheap', 'ai', 1_000_000)];
    await service.rebuild();
    await service.refresh();
    expect(snapshots.reads).toBe(1);

    campaigns.notifyExhausted('dear');
    snapshots.probed.exhausted = 1;
    await service.refresh();
    expect(snapshots.reads).toBe(1);

    // A campaign ran out on an instance that could not tell this one.
    snapshots.probed.exhausted = 2;
    await service.refresh();
    expect(snapshots.reads).toBe(2);
  });

  it('rebuilds at the periodic refresh when anything else in the probe changed', async () => {
    const { snapshots, service } = setUp();
    await service.rebuild();
    snapshots.probed.other = 'b';
    await service.refresh();
    expect(snapshots.reads).toBe(2);
  });

  it('rebuilds at the first periodic refresh after UTC midnight though the probe has not moved', async () => {
    // Daily budgets start again at midnight, and no write tells the probe so.
    jest.useFakeTimers({ doNotFake: ['setImmediate'], now: new Date('2031-03-09T23:59:59Z') });
    try {
      const { snapshots, service } = setUp();
      await service.rebuild();
      await service.refresh();
      expect(snapshots.reads).toBe(1);

      jest.setSystemTime(new Date('2031-03-10T00:00:00.001Z'));
      await service.refresh();
      expect(snapshots.reads).toBe(2);
      await service.refresh();
      expect(snapshots.reads).toBe(2);
    } finally {
      jest.useRealTimers();
    }
  });

  describe('a rebuild after a committed change that fails', () => {
    beforeEach(() => {
      jest.useFakeTimers({ doNotFake: ['setImmediate'] });
      jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    });
    afterEach(() => {
      jest.useRealTimers();
      jest.restoreAllMocks();
    });

    it('does not fail the change, and is retried after 0.5 s', async () => {
      const { snapshots, campaigns, winner } = setUp();
      snapshots.campaigns = [servable('new', 'ai', 1_000_000)];
      snapshots.failures = 1;

      await expect(campaigns.notifyChanged()).resolves.toBeUndefined();
      expect(winner()).toBeUndefined();
      expect(Logger.prototype.error).toHaveBeenCalledTimes(1);

      await jest.advanceTimersByTimeAsync(499);
      expect(snapshots.reads).toBe(1);
      await jest.advanceTimersByTimeAsync(1);
      // The retry's build yields to the event loop between slices: give it those turns.
      for (let turn = 0; turn < 100 && winner() === undefined; turn++) {
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      expect(winner()).toBe('new');
      expect(snapshots.reads).toBe(2);
    });

    it('backs off 0.5, 1, 2, 4, 8 and 16 s, then leaves it to the periodic refresh', async () => {
      const { snapshots, campaigns } = setUp();
      snapshots.failures = 100;
      await campaigns.notifyChanged();
      const readsAt: number[] = [];
      for (let second = 0.5; second <= 40; second += 0.5) {
        const before = snapshots.reads;
        await jest.advanceTimersByTimeAsync(500);
        if (snapshots.reads > before) readsAt.push(second);
      }
      expect(readsAt).toEqual([0.5, 1.5, 3.5, 7.5, 15.5, 31.5]);
      expect(jest.getTimerCount()).toBe(0);
    });
  });
});
