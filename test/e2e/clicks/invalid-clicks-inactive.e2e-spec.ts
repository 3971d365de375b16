import { Campaign } from '@/campaigns/entities/campaign.entity';
import { CampaignsService } from '@/campaigns/campaigns/campaigns.service';
import { clickTraffic, PRODUCTION_RULES } from '@test/support/click-traffic';
import { startTestApp, TestApp } from '@test/support/test-app';
import { testDatabaseKind } from '@test/support/test-database';
import { withoutClickId } from '@test/support/ads';

describe(`invalid clicks are never billed (${testDatabaseKind()})`, () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp(PRODUCTION_RULES);
  });
  afterAll(() => t.close());

  const { newPerson, serve, servedAgo, follow, clicksOn, billedOf, setUp, expectUnbilled } =
    clickTraffic(() => t);

  it('does not bill a click after the publisher was suspended (publisher_suspended)', async () => {
    const { publisher, campaign } = await setUp();
    const { link, impressionId } = await serve(campaign, publisher.key);
    await servedAgo(impressionId, 5_000);
    const operator = await t.f.signedInAdmin();
    const suspend = await operator.api('PATCH', `/api/admin/publishers/${publisher.publisher.id}`, {
      status: 'suspended',
    });
    expect(suspend.status).toBe(200);

    const response = await follow(link, { ip: newPerson() });

    await expectUnbilled(response, campaign, impressionId, 'publisher_suspended');
  });

  it('does not bill a click after the model was deactivated (model_inactive)', async () => {
    const { publisher, campaign } = await setUp();
    const { link, impressionId } = await serve(campaign, publisher.key);
    await servedAgo(impressionId, 5_000);
    await t.f.setModelStatus(publisher.model.id, 'deactivated');

    const response = await follow(link, { ip: newPerson() });

    await expectUnbilled(response, campaign, impressionId, 'model_inactive');
  });

  it('does not bill a click after the API key that fetched the ad was revoked (key_revoked)', async () => {
    const { publisher, campaign } = await setUp();
    const { link, impressionId } = await serve(campaign, publisher.key);
    await servedAgo(impressionId, 5_000);
    await t.f.revokeKey(publisher.keyId);

    const response = await follow(link, { ip: newPerson() });

    await expectUnbilled(response, campaign, impressionId, 'key_revoked');
  });

  it.each(['paused', 'archived'] as const)(
    'does not bill a click after the campaign was %s (campaign_inactive)',
    async (status) => {
      const { publisher, campaign } = await setUp();
      const { link, impressionId } = await serve(campaign, publisher.key);
      await servedAgo(impressionId, 5_000);
      await t.app.get(CampaignsService).updateCampaign(campaign.id, { status });

      const response = await follow(link, { ip: newPerson() });

      await expectUnbilled(response, campaign, impressionId, 'campaign_inactive');
    },
  );

  it('does not bill a click after the campaign ended, though its ad was served before (campaign_inactive)', async () => {
    const { publisher, campaign } = await setUp();
    const { link, impressionId } = await serve(campaign, publisher.key);
    await servedAgo(impressionId, 5_000);
    // The campaign's end passed between the serve and the click (still inside the click window).
    await t.dataSource
      .getRepository(Campaign)
      .update({ id: campaign.id }, { endsAt: new Date(Date.now() - 1_000) });

    const response = await follow(link, { ip: newPerson() });

    await expectUnbilled(response, campaign, impressionId, 'campaign_inactive');
  });

  it('does not bill a click the campaign can no longer pay (over_budget)', async () => {
    const { publisher, campaign } = await setUp({ budgetTotal: '0.40' });
    const first = await serve(campaign, publisher.key);
    const second = await serve(campaign, publisher.key);
    await servedAgo(first.impressionId, 5_000);
    await servedAgo(second.impressionId, 5_000);
    expect((await follow(first.link, { ip: newPerson() })).status).toBe(302);

    const response = await follow(second.link, { ip: newPerson() });

    expect(response.status).toBe(302);
    expect(withoutClickId(response.headers.get('location'))).toBe(campaign.targetUrl);
    expect(await clicksOn(second.impressionId)).toEqual([
      expect.objectContaining({ status: 'over_budget', costMicros: 0 }),
    ]);
    expect(await billedOf(campaign.id)).toEqual({ spent: 400_000, ledger: 3 });
  });
});
