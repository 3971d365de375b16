import { Logger } from '@nestjs/common';
import { Campaign } from '@/campaigns/entities/campaign.entity';
import { CampaignAuditEntry } from '@/campaigns/entities/campaign-audit-entry.entity';
import { ServableCampaignsReader } from '@/campaigns/campaigns/servable-campaigns.reader';
import type { PublisherWithKey, SignedIn } from '@test/factories';
import { startTestApp, TestApp } from '@test/support/test-app';
import { testDatabaseKind } from '@test/support/test-database';

/**
 * A campaign change is committed before the ad index is rebuilt for it. When that rebuild
 * fails, the change must still answer success (an error would make the operator retry and
 * repeat it), and the index must catch up by itself. The database is real; only the index's
 * snapshot read is made to fail, through the app's own container.
 */
describe(`a committed campaign change whose index rebuild fails (${testDatabaseKind()})`, () => {
  let t: TestApp;
  let operator: SignedIn;
  let publisher: PublisherWithKey;
  let advertiserId: string;

  beforeAll(async () => {
    // The periodic refresh is an hour away: only the retry can bring the index up to date.
    t = await startTestApp({ CAMPAIGN_INDEX_REFRESH_SECONDS: '3600' });
    operator = await t.f.signedInAdmin();
    publisher = await t.f.publisherWithKey();
    const advertiser = await operator.api('POST', '/api/admin/advertisers', { name: 'Acme' });
    advertiserId = ((await advertiser.json()) as { id: string }).id;
  });
  afterAll(() => t.close());
  afterEach(() => jest.restoreAllMocks());
  // Polls below wait with generous deadlines, for a slow, loaded machine.
  jest.setTimeout(60_000);

  /** Makes the next `failures` snapshot reads of the index fail; counts every read. */
  function failNextRebuilds(failures: number): jest.SpyInstance {
    const reads = jest.spyOn(t.app.get(ServableCampaignsReader), 'readServable');
    for (let i = 0; i < failures; i++) {
      reads.mockRejectedValueOnce(new Error('simulated snapshot read failure'));
    }
    return reads;
  }

  const fetchAdStatus = async (keyword: string) =>
    (await t.fetchAds(publisher.key, { conversation: 'hi', context_keywords: keyword })).status;

  /** Polls fetch-ads until it answers `status` (generous deadline for a loaded machine). */
  async function untilFetchAds(keyword: string, status: number): Promise<void> {
    const deadline = Date.now() + 30_000;
    while ((await fetchAdStatus(keyword)) !== status) {
      if (Date.now() > deadline) throw new Error(`fetch-ads never answered ${status}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it('answers 201 once, stores exactly one campaign, logs the failure and serves it after the retry', async () => {
    const errors = jest.spyOn(Logger.prototype, 'error');
    const reads = failNextRebuilds(1);

    const response = await operator.api('POST', '/api/admin/campaigns', {
      advertiser_id: advertiserId,
      name: 'Kayaks',
      text: 'Sea kayaks for rent.',
      target_url: 'https://shop.example/kayaks',
      keywords: ['kayak'],
      bid_per_click: 0.4,
    });

    expect(response.status).toBe(201);
    const created = (await response.json()) as { id: string; status: string };
    expect(created.status).toBe('active');
    expect(await t.dataSource.getRepository(Campaign).countBy({ name: 'Kayaks' })).toBe(1);
    expect(errors).toHaveBeenCalledWith(
      expect.stringContaining('index rebuild after a campaign change failed'),
      expect.any(String),
    );
    await untilFetchAds('kayak', 200);
    // The failed read, then the retry's: no rebuild came from anywhere else.
    expect(reads).toHaveBeenCalledTimes(2);
  });

  it('answers 200 to a pause whose rebuild fails twice, and stops serving it after the retries', async () => {
    const campaign = await t.f.campaign({ advertiserId, keywords: 'canoe' });
    await untilFetchAds('canoe', 200);
    const reads = failNextRebuilds(2);

    const response = await operator.api('PATCH', `/api/admin/campaigns/${campaign.id}`, {
      status: 'paused',
    });

    expect(response.status).toBe(200);
    expect(((await response.json()) as { status: string }).status).toBe('paused');
    const audit = await t.dataSource
      .getRepository(CampaignAuditEntry)
      .countBy({ campaignId: campaign.id, field: 'status' });
    expect(audit).toBe(1);
    await untilFetchAds('canoe', 404);
    expect(reads).toHaveBeenCalledTimes(3);
  });
});
