import { Campaign } from '@/campaigns/entities/campaign.entity';
import { LedgerEntry } from '@/earnings/entities/ledger-entry.entity';
import { ClickRecorder } from '@/tracking/click-recorder.service';
import { Click } from '@/tracking/entities/click.entity';
import { Impression } from '@/tracking/entities/impression.entity';
import { ask, campaignLink, followAsBrowser, followWith, withoutClickId } from '@test/support/ads';
import { expectProblem } from '@test/support/problem';
import { startTestApp, TestApp } from '@test/support/test-app';
import { testDatabaseKind } from '@test/support/test-database';

describe(`GET /api/campaign_click (${testDatabaseKind()})`, () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  /** Serves an ad for `keywords` to a fresh publisher and returns its tracking link. */
  async function servedLink(keywords: string, revenueShare = 0.7) {
    const publisher = await t.f.publisherWithKey({ revenueShare });
    return {
      ...publisher,
      link: await campaignLink(await t.fetchAds(publisher.key, ask(keywords))),
    };
  }

  const clicksOf = (campaignId: string) => t.dataSource.getRepository(Click).findBy({ campaignId });
  const ledgerOf = (campaignId: string) =>
    t.dataSource.getRepository(LedgerEntry).findBy({ campaignId });
  const campaign = (id: string) => t.dataSource.getRepository(Campaign).findOneByOrFail({ id });

  it('redirects (302) to the campaign target and bills the click once: publisher earns bid × share', async () => {
    const c = await t.f.campaign({
      keywords: 'hiking boots',
      bid: '0.35',
      targetUrl: 'https://shop.example/boots',
    });
    const { link, publisher } = await servedLink('hiking boots', 0.7);

    const response = await followAsBrowser(link);

    expect(response.status).toBe(302);
    expect(withoutClickId(response.headers.get('location'))).toBe('https://shop.example/boots');
    const clicks = await clicksOf(c.id);
    expect(clicks).toHaveLength(1);
    expect(clicks[0]).toMatchObject({
      status: 'billed',
      costMicros: 350_000,
      publisherEarningsMicros: 245_000,
    });
    const ledger = await ledgerOf(c.id);
    const amount = (account: string) => ledger.find((e) => e.account === account)?.amountMicros;
    expect(amount('campaign_spend')).toBe(350_000);
    expect(amount('publisher_earnings')).toBe(245_000);
    expect(amount('platform_revenue')).toBe(105_000);
    expect(ledger.every((e) => e.publisherId === publisher.id)).toBe(true);
    expect((await campaign(c.id)).spentMicros).toBe(350_000);
  });

  it('records a second follow of the same link but never bills it twice', async () => {
    const c = await t.f.campaign({ keywords: 'tent', bid: '0.20' });
    const { link } = await servedLink('tent');
    expect((await followAsBrowser(link)).status).toBe(302);
    expect((await followAsBrowser(link)).status).toBe(302);
    const clicks = await clicksOf(c.id);
    expect(clicks.map((k) => k.status).sort()).toEqual(['billed', 'invalid']);
    expect(clicks.find((k) => k.status === 'invalid')?.invalidReason).toBe('duplicate');
    expect((await campaign(c.id)).spentMicros).toBe(200_000);
  });

  it('bills one of many simultaneous follows of the same link, recording the others', async () => {
    const c = await t.f.campaign({ keywords: 'canoe', bid: '0.30' });
    const { link } = await servedLink('canoe');
    const responses = await Promise.all(Array.from({ length: 8 }, () => followAsBrowser(link)));
    expect(responses.map((r) => r.status)).toEqual(Array(8).fill(302));
    const clicks = await clicksOf(c.id);
    expect(clicks.filter((k) => k.status === 'billed')).toHaveLength(1);
    expect(clicks.filter((k) => k.invalidReason === 'duplicate')).toHaveLength(7);
    expect((await campaign(c.id)).spentMicros).toBe(300_000);
    expect(await ledgerOf(c.id)).toHaveLength(3);
  });

  it('records the clicks of concurrent follows in shared batches, losing none', async () => {
    const c = await t.f.campaign({ keywords: 'paddle', bid: '0.10' });
    const links = [];
    for (let i = 0; i < 30; i++) links.push((await servedLink('paddle')).link);
    const recorder = t.app.get(ClickRecorder);
    const before = recorder.stats;
    const responses = await Promise.all(links.map((link) => followAsBrowser(link)));
    expect(responses.map((r) => r.status)).toEqual(Array(30).fill(302));
    const clicks = await clicksOf(c.id);
    expect(clicks.map((k) => k.status)).toEqual(Array(30).fill('billed'));
    expect((await campaign(c.id)).spentMicros).toBe(3_000_000);
    expect(recorder.stats.clicks - before.clicks).toBe(30);
    expect(recorder.stats.batches - before.batches).toBeLessThan(30);
  });

  it('never follows a targetLink that differs from the campaign target (no open redirect)', async () => {
    await t.f.campaign({ keywords: 'sleeping bag', targetUrl: 'https://shop.example/bags' });
    const { link } = await servedLink('sleeping bag');
    const tampered = new URL(link);
    tampered.searchParams.set('targetLink', 'https://evil.example/phish');
    const response = await followAsBrowser(tampered.toString());
    expect(response.status).toBe(302);
    expect(withoutClickId(response.headers.get('location'))).toBe('https://shop.example/bags');
  });

  it('records a forged link as invalid and bills nothing, yet still sends the person to the ad', async () => {
    const c = await t.f.campaign({ keywords: 'canoe', targetUrl: 'https://shop.example/canoe' });
    const { link } = await servedLink('canoe');
    const forged = new URL(link);
    forged.searchParams.set('sig', 'AAAAAAAAAAAAAAAAAAAAAA');
    const noSignature = new URL(link);
    noSignature.searchParams.delete('sig');
    expect(withoutClickId((await followAsBrowser(forged.toString())).headers.get('location'))).toBe(
      'https://shop.example/canoe',
    );
    expect((await followAsBrowser(noSignature.toString())).status).toBe(302);
    const clicks = await clicksOf(c.id);
    expect(clicks.map((k) => k.invalidReason)).toEqual(['bad_signature', 'bad_signature']);
    expect(await ledgerOf(c.id)).toEqual([]);
  });

  it('does not bill a click from a known bot or a client without a user agent', async () => {
    const c = await t.f.campaign({ keywords: 'compass' });
    const bot = await servedLink('compass');
    const anonymous = await servedLink('compass');
    await followWith(
      bot.link,
      'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    );
    await followWith(anonymous.link, null);
    expect((await clicksOf(c.id)).map((k) => k.invalidReason)).toEqual(['bot', 'bot']);
    expect((await campaign(c.id)).spentMicros).toBe(0);
  });

  it('does not bill a click that arrives after the click window', async () => {
    const c = await t.f.campaign({ keywords: 'lantern' });
    const { link } = await servedLink('lantern');
    const impressionId = new URL(link).searchParams.get('imp') as string;
    const longAgo = new Date(Date.now() - t.config.clickWindowMs - 60_000);
    await t.dataSource
      .getRepository(Impression)
      .update({ id: impressionId }, { createdAt: longAgo });
    expect((await followAsBrowser(link)).status).toBe(302);
    expect((await clicksOf(c.id)).map((k) => k.invalidReason)).toEqual(['expired']);
  });

  it('records a click past the budget unbilled, and the exhausted campaign stops being served', async () => {
    const c = await t.f.campaign({ keywords: 'kite', bid: '0.50', budgetTotal: '0.50' });
    const first = await servedLink('kite');
    const second = await servedLink('kite');
    await followAsBrowser(first.link);
    const statuses = (await clicksOf(c.id)).map((k) => k.status);
    expect(statuses).toEqual(['billed']);
    // The budget is spent: the index dropped the campaign, so no new impression is served...
    await expectProblem(await t.fetchAds(first.key, ask('kite')), 404, 'no_matching_ad');
    // ...and a click on an ad served before that is recorded but not billed.
    await followAsBrowser(second.link);
    expect((await clicksOf(c.id)).map((k) => k.status).sort()).toEqual(['billed', 'over_budget']);
    expect((await campaign(c.id)).spentMicros).toBe(500_000);
  });

  it('answers 404 problem for an unknown campaign and 400 without campaign_id', async () => {
    await expectProblem(
      await followAsBrowser(
        `${t.baseUrl}/api/campaign_click?campaign_id=nope&model_id=x&targetLink=https%3A%2F%2Fa.example`,
      ),
      404,
      'campaign_not_found',
    );
    await expectProblem(
      await followAsBrowser(`${t.baseUrl}/api/campaign_click?model_id=x`),
      400,
      'validation_failed',
    );
  });
});

describe(`campaign_click rate limit (${testDatabaseKind()})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ CLICK_RATE_LIMIT_PER_MINUTE: '2' });
  });
  afterAll(() => t.close());

  it('answers 429 with Retry-After when one client follows links too often', async () => {
    const c = await t.f.campaign({ keywords: 'yoyo' });
    const link = `${t.baseUrl}/api/campaign_click?campaign_id=${c.id}&model_id=m`;
    const follow = () => fetch(link, { redirect: 'manual' });
    expect((await follow()).status).toBe(302);
    expect((await follow()).status).toBe(302);
    const limited = await follow();
    await expectProblem(limited, 429, 'rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
