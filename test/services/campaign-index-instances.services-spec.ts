import { ask, campaignLink, followAsBrowser } from '@test/support/ads';
import { type Instance, startAnotherInstance } from '@test/support/another-instance';
import { startTestApp, TestApp } from '@test/support/test-app';
import { testDatabaseKind } from '@test/support/test-database';
import { testRedisUrl } from '@test/support/test-redis';

/** Required: global-setup fails the run when this Redis does not answer. */
const redisUrl = testRedisUrl();

/** Polls until `instance` answers fetch-ads for `keywords` with `status`; false after `ms`. */
async function answersWithin(
  instance: Instance,
  key: string,
  keywords: string,
  status: number,
  ms: number,
): Promise<boolean> {
  const until = Date.now() + ms;
  for (;;) {
    if ((await instance.fetchAds(key, ask(keywords))).status === status) return true;
    if (Date.now() > until) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe(`campaign changes reach other instances without Redis (${testDatabaseKind()})`, () => {
  let first: TestApp;
  let second: Instance;

  beforeAll(async () => {
    first = await startTestApp({ CAMPAIGN_INDEX_REFRESH_SECONDS: '1' });
    second = await startAnotherInstance(first, { CAMPAIGN_INDEX_REFRESH_SECONDS: '1' });
  });
  afterAll(async () => {
    await second.close();
    await first.close();
  });

  it('at the periodic rebuild (CAMPAIGN_INDEX_REFRESH_SECONDS)', async () => {
    const operator = await first.f.operator();
    const { key } = await first.f.publisherWithKey();
    const advertiser = (await (
      await operator.api('POST', '/api/admin/advertisers', { name: 'Periodic' })
    ).json()) as { id: string };
    const created = await operator.api('POST', '/api/admin/campaigns', {
      advertiser_id: advertiser.id,
      name: 'Seen later',
      text: 'Soon everywhere.',
      target_url: 'https://shop.example/later',
      keywords: ['periodic table'],
      bid_per_click: 0.1,
    });
    expect(created.status).toBe(201);
    expect(await answersWithin(second, key, 'periodic table', 200, 3000)).toBe(true);
  });
});

describe(`campaign changes reach other instances through Redis (${testDatabaseKind()})`, () => {
  let first: TestApp;
  let second: Instance;
  // A periodic rebuild far away: whatever the second instance learns, it learns from Redis.
  const env = { REDIS_URL: redisUrl, CAMPAIGN_INDEX_REFRESH_SECONDS: '3600' };

  beforeAll(async () => {
    first = await startTestApp(env);
    second = await startAnotherInstance(first, env);
  });
  afterAll(async () => {
    await second.close();
    await first.close();
  });

  it('serves, pauses and drops a spent campaign on the other instance within a second', async () => {
    const operator = await first.f.operator();
    const { key } = await first.f.publisherWithKey();
    const advertiser = (await (
      await operator.api('POST', '/api/admin/advertisers', { name: 'Pub/Sub' })
    ).json()) as { id: string };
    const response = await operator.api('POST', '/api/admin/campaigns', {
      advertiser_id: advertiser.id,
      name: 'Everywhere at once',
      text: 'Now on every instance.',
      target_url: 'https://shop.example/now',
      keywords: ['broadcast'],
      bid_per_click: 0.5,
      budget_total: 0.5,
    });
    const campaign = (await response.json()) as { id: string };
    const path = `/api/admin/campaigns/${campaign.id}`;

    expect(await answersWithin(second, key, 'broadcast', 200, 1000)).toBe(true);
    await operator.api('PATCH', path, { status: 'paused' });
    expect(await answersWithin(second, key, 'broadcast', 404, 1000)).toBe(true);
    await operator.api('PATCH', path, { status: 'active' });
    expect(await answersWithin(second, key, 'broadcast', 200, 1000)).toBe(true);

    // A click on the first instance spends the budget; the second stops serving it too.
    await followAsBrowser(await campaignLink(await first.fetchAds(key, ask('broadcast'))));
    expect(await answersWithin(second, key, 'broadcast', 404, 1000)).toBe(true);
  });
});
