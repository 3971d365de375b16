import { Campaign } from '@/campaigns/entities/campaign.entity';
import { Click } from '@/tracking/entities/click.entity';
import { Impression } from '@/tracking/entities/impression.entity';
import { BROWSER_UA, withoutClickId } from '@test/support/ads';
import { expectProblem } from '@test/support/problem';
import { startTestApp, TestApp } from '@test/support/test-app';
import { testDatabaseKind } from '@test/support/test-database';

/** The production click rules (the harness relaxes them for other suites). */
const PRODUCTION_RULES = {
  CLICK_MIN_SECONDS: '',
  CLICK_IP_LIMIT_CAMPAIGN_MINUTE: '',
  CLICK_IP_LIMIT_PER_HOUR: '',
  CLICK_IP_LIMIT_PER_DAY: '',
  LOGIN_RATE_LIMIT_PER_MINUTE: '2',
};

describe.each([
  ['no trusted proxy (the default)', '', 'one person'],
  ['TRUSTED_PROXIES=127.0.0.1', '127.0.0.1', 'two people'],
  ['TRUSTED_PROXIES=1 (a hop count)', '1', 'two people'],
])(`client IP with %s (${testDatabaseKind()})`, (_label, trustedProxies, people) => {
  let t: TestApp;
  let campaign: Campaign;
  let publisherKey: string;
  const trusted = trustedProxies !== '';

  beforeAll(async () => {
    t = await startTestApp({ ...PRODUCTION_RULES, TRUSTED_PROXIES: trustedProxies });
    campaign = await t.f.campaign({ keywords: 'kayak', bid: '0.30' });
    publisherKey = (await t.f.publisherWithKey()).key;
  });
  afterAll(() => t.close());

  /** A link served well over CLICK_MIN_SECONDS ago. */
  async function servedLink() {
    const response = await t.fetchAds(publisherKey, {
      conversation: 'Which kayak?',
      context_keywords: 'kayak',
    });
    const body = (await response.json()) as { advertisements: { campaign_link: string }[] };
    const link = body.advertisements[0].campaign_link;
    const impressionId = new URL(link).searchParams.get('imp')!;
    await t.dataSource
      .getRepository(Impression)
      .update({ id: impressionId }, { createdAt: new Date(Date.now() - 5_000) });
    return { link, impressionId };
  }

  const followFrom = (link: string, forwardedFor: string) =>
    fetch(link, {
      redirect: 'manual',
      headers: { 'user-agent': BROWSER_UA, 'x-forwarded-for': forwardedFor },
    });

  it(`counts two clicks with different X-Forwarded-For from 127.0.0.1 as ${people}`, async () => {
    const first = await servedLink();
    const second = await servedLink();

    expect((await followFrom(first.link, '203.0.113.10')).status).toBe(302);
    const response = await followFrom(second.link, '203.0.113.20');

    expect(response.status).toBe(302);
    expect(withoutClickId(response.headers.get('location'))).toBe(campaign.targetUrl);
    const clicks = await t.dataSource
      .getRepository(Click)
      .find({ where: { campaignId: campaign.id }, order: { createdAt: 'ASC', id: 'ASC' } });
    expect(clicks.map((c) => c.invalidReason ?? c.status)).toEqual(
      trusted ? ['billed', 'billed'] : ['billed', 'ip_limit'],
    );
    // Stored only as a keyed hash: neither address appears anywhere in the row.
    for (const click of clicks) {
      expect(click.ipHash).toMatch(/^[0-9a-f]{64}$/);
      expect(JSON.stringify(click)).not.toMatch(/203\.0\.113|127\.0\.0\.1/);
    }
    expect(new Set(clicks.map((c) => c.ipHash)).size).toBe(trusted ? 2 : 1);
  });

  it(`limits sign-in attempts per client IP as ${people}`, async () => {
    const attempt = (forwardedFor: string, n: number) =>
      t.http('/api/auth/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
        body: JSON.stringify({ email: `nobody${n}@example.test`, password: 'a wrong password' }),
      });
    // Two attempts (the limit) from one person, with different emails.
    await expectProblem(await attempt('203.0.113.30', 1), 401, 'invalid_credentials');
    await expectProblem(await attempt('203.0.113.30', 2), 401, 'invalid_credentials');

    const other = await attempt('203.0.113.40', 3);

    if (trusted) await expectProblem(other, 401, 'invalid_credentials');
    else await expectProblem(other, 429, 'rate_limited');
  });
});
