import type { CampaignsService } from '@/campaigns/campaigns.service';
import type {
  ServabilityProbe,
  ServableCampaign,
  ServableCampaignsReader,
  SnapshotFacts,
} from '@/campaigns/servable-campaigns.reader';
import type { AppConfig } from '@/config/app-config';
import { CampaignIndexService } from './campaign-index.service';

function servable(id: string, keyword: string, bidMicros: number): ServableCampaign {
  return {
    id,
    name: id,
    text: 'An ad',
    imageUrl: null,
    targetUrl: `https://advertiser.example/${id}`,
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
    const [first, ...rest] = this.campaigns;
    if (first) await consume([first]);
    if (this.hold) await this.hold;
    await consume(rest);
    return { nextScheduleChange: null };
  }
}

class FakeCampaigns {
  exhaustedListeners: ((id: string) => void)[] = [];
  served: (id: string) => { id: string; targetUrl: string } | undefined = () => undefined;
  onChange(): void {}
  onExhausted(listener: (id: string) => void): void {
    this.exhaustedListeners.push(listener);
  }
  registerServed(lookup: (id: string) => { id: string; targetUrl: string } | undefined): void {
    this.served = lookup;
  }
  notifyExhausted(id: string): void {
    this.exhaustedListeners.forEach((listener) => listener(id));
  }
}

function setUp() {
  const snapshots = new FakeSnapshots();
  const campaigns = new FakeCampaigns();
  const service = new CampaignIndexService(
    campaigns as unknown as CampaignsService,
    snapshots as unknown as ServableCampaignsReader,
    { campaignIndexRefreshMs: 3_600_000 } as AppConfig,
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
    expect(campaigns.served('dear')?.targetUrl).toBe('https://advertiser.example/dear');

    campaigns.notifyExhausted('dear');

    expect(winner()).toBe('cheap');
    expect(campaigns.served('dear')).toBeUndefined();
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
    expect(campaigns.served('dear')).toBeUndefined();
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
});
