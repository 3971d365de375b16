import { LedgerEntry } from '@/earnings/entities/ledger-entry.entity';
import { ClickRecorder } from '@/tracking/click-recorder.service';
import { Click } from '@/tracking/entities/click.entity';
import { ask, campaignLink, followAsBrowser } from '@test/support/ads';
import { startTestApp, TestApp } from '@test/support/test-app';
import { testDatabaseKind } from '@test/support/test-database';
import { CampaignChangeNotifier } from '@/campaigns/change-notices/campaign-change-notifier.service';

describe(`work after a click batch commits (${testDatabaseKind()})`, () => {
  let t: TestApp;

  beforeAll(async () => {
    // Concurrent follows wait 200 ms for each other, so they share one batch.
    t = await startTestApp({ CLICK_FLUSH_MS: '200' });
  });
  afterAll(() => t.close());

  it('never fails a committed batch: a failing notice that a campaign is spent still redirects everyone, records each click once and bills once', async () => {
    const campaign = await t.f.campaign({ keywords: 'pogo', bid: '0.50', budgetTotal: '0.50' });
    const publisher = await t.f.publisherWithKey();
    const links: string[] = [];
    for (let i = 0; i < 3; i++)
      links.push(await campaignLink(await t.fetchAds(publisher.key, ask('pogo'))));
    // The notice after the commit (Redis, the index) fails.
    const notice = jest
      .spyOn(t.app.get(CampaignChangeNotifier), 'notifyExhausted')
      .mockRejectedValue(new Error('the change notice could not be sent'));
    const batchesBefore = t.app.get(ClickRecorder).stats.batches;

    try {
      const responses = await Promise.all(links.map((link) => followAsBrowser(link)));

      expect(responses.map((r) => r.status)).toEqual([302, 302, 302]);
      expect(notice).toHaveBeenCalledWith(campaign.id);
    } finally {
      notice.mockRestore();
    }
    // One batch, committed once: no click re-recorded one by one.
    expect(t.app.get(ClickRecorder).stats.batches - batchesBefore).toBe(1);
    const clicks = await t.dataSource.getRepository(Click).findBy({ campaignId: campaign.id });
    expect(clicks).toHaveLength(3);
    expect(clicks.map((c) => c.status).sort()).toEqual(['billed', 'over_budget', 'over_budget']);
    expect(await t.dataSource.getRepository(LedgerEntry).countBy({ campaignId: campaign.id })).toBe(
      3,
    );
  });
});
