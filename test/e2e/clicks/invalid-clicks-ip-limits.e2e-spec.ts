import { In } from 'typeorm';
import { Campaign } from '@/campaigns/entities/campaign.entity';
import { CampaignsService } from '@/campaigns/campaigns/campaigns.service';
import { Click } from '@/tracking/entities/click.entity';
import { Impression } from '@/tracking/entities/impression.entity';
import { ClickRecorder } from '@/tracking/click-recorder.service';
import { ask, BROWSER_UA, campaignLink, withoutClickId } from '@test/support/ads';
import { clickTraffic, PRODUCTION_RULES } from '@test/support/click-traffic';
import { startTestApp, TestApp } from '@test/support/test-app';
import { testDatabaseKind } from '@test/support/test-database';

describe(`invalid clicks are never billed (${testDatabaseKind()})`, () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp(PRODUCTION_RULES);
  });
  afterAll(() => t.close());

  const { newPerson, uniqueKeyword, serve, servedAgo, follow, clicksOn, billedOf, setUp } =
    clickTraffic(() => t);

  it('bills one click a minute per campaign from one IP (ip_limit), and other people as usual', async () => {
    const { publisher, campaign } = await setUp();
    const served = [];
    for (let i = 0; i < 3; i++) served.push(await serve(campaign, publisher.key));
    for (const { impressionId } of served) await servedAgo(impressionId, 5_000);
    const ip = newPerson();

    expect((await follow(served[0].link, { ip })).status).toBe(302);
    const again = await follow(served[1].link, { ip });
    expect(again.status).toBe(302);
    expect(withoutClickId(again.headers.get('location'))).toBe(campaign.targetUrl);
    expect((await clicksOn(served[1].impressionId))[0]).toMatchObject({
      status: 'invalid',
      invalidReason: 'ip_limit',
    });
    expect((await follow(served[2].link, { ip: newPerson() })).status).toBe(302);

    expect((await clicksOn(served[2].impressionId))[0].status).toBe('billed');
    expect(await billedOf(campaign.id)).toEqual({ spent: 800_000, ledger: 6 });
  });

  /** Serves `count` ads of each campaign, as if served 5 s ago; returns their links. */
  async function servedLinks(campaigns: Campaign[], count: number, publisherKey: string) {
    const served = [];
    for (const campaign of campaigns) {
      for (let i = 0; i < count; i++) served.push(await serve(campaign, publisherKey));
    }
    await t.dataSource
      .getRepository(Impression)
      .update(
        { id: In(served.map((s) => s.impressionId)) },
        { createdAt: new Date(Date.now() - 5_000) },
      );
    return served.map((s) => s.link);
  }

  /** Every click on these campaigns, as a count per outcome (the reason when unbilled). */
  async function outcomesOn(campaigns: Campaign[]) {
    const clicks = await t.dataSource
      .getRepository(Click)
      .findBy({ campaignId: In(campaigns.map((c) => c.id)) });
    const counts: Record<string, number> = {};
    for (const c of clicks)
      counts[c.invalidReason ?? c.status] = (counts[c.invalidReason ?? c.status] ?? 0) + 1;
    return counts;
  }

  // Concurrent follows land in concurrent click batches (two at once on MySQL): the IP's
  // billed clicks must still be counted across them.
  it('bills one click of 30 followed at once from one IP on one campaign (ip_limit)', async () => {
    for (let run = 0; run < 3; run++) {
      const { publisher, campaign } = await setUp();
      const links = await servedLinks([campaign], 30, publisher.key);
      const ip = newPerson();

      const responses = await Promise.all(links.map((link) => follow(link, { ip })));

      expect(responses.map((r) => r.status)).toEqual(Array(30).fill(302));
      expect(await outcomesOn([campaign])).toEqual({ billed: 1, ip_limit: 29 });
      expect(await billedOf(campaign.id)).toEqual({ spent: 400_000, ledger: 3 });
    }
  });

  it('bills 10 of 30 clicks followed at once from one IP across 15 campaigns (ip_limit)', async () => {
    const publisher = await t.f.publisherWithKey();
    const campaigns: Campaign[] = [];
    for (let i = 0; i < 15; i++) {
      campaigns.push(await t.f.campaign({ keywords: uniqueKeyword(), bid: '0.10' }));
    }
    const links = await servedLinks(campaigns, 2, publisher.key);
    const ip = newPerson();

    const responses = await Promise.all(links.map((link) => follow(link, { ip })));

    expect(responses.map((r) => r.status)).toEqual(Array(30).fill(302));
    // At most 10 an hour in all, and at most one a minute on each campaign.
    expect(await outcomesOn(campaigns)).toEqual({ billed: 10, ip_limit: 20 });
    for (const campaign of campaigns) {
      expect((await billedOf(campaign.id)).spent).toBeLessThanOrEqual(100_000);
    }
  });

  it('bills at most 10 clicks an hour and 25 a day from one IP (ip_limit)', async () => {
    const publisher = await t.f.publisherWithKey();
    const campaigns: Campaign[] = [];
    for (let i = 0; i < 11; i++) {
      campaigns.push(await t.f.campaign({ keywords: uniqueKeyword(), bid: '0.10' }));
    }
    const ip = newPerson();
    /** Serves and clicks each campaign once; returns each click's status. */
    const clickEach = async (list: Campaign[]) => {
      const statuses: string[] = [];
      for (const campaign of list) {
        const { link, impressionId } = await serve(campaign, publisher.key);
        await servedAgo(impressionId, 5_000);
        expect((await follow(link, { ip })).status).toBe(302);
        const [click] = await clicksOn(impressionId);
        statuses.push(click.invalidReason ?? click.status);
      }
      return statuses;
    };
    /** Moves this publisher's clicks so far back in time (out of the last hour). */
    const clicksAgo = async (hours: number) => {
      const clicks = await t.dataSource
        .getRepository(Click)
        .findBy({ publisherId: publisher.publisher.id });
      const moved = clicks.filter((c) => c.createdAt.getTime() > Date.now() - 3_600_000);
      for (const click of moved) {
        await t.dataSource
          .getRepository(Click)
          .update({ id: click.id }, { createdAt: new Date(Date.now() - hours * 3_600_000) });
      }
    };

    // Ten in an hour are billed, the eleventh is not.
    expect(await clickEach(campaigns)).toEqual([...Array(10).fill('billed'), 'ip_limit']);
    // Spread over the day: 10 two hours ago, 10 three hours ago, 5 now: 25, then no more.
    await clicksAgo(2);
    expect(await clickEach(campaigns.slice(0, 10))).toEqual(Array(10).fill('billed'));
    await clicksAgo(3);
    expect(await clickEach(campaigns.slice(0, 6))).toEqual([
      ...Array(5).fill('billed'),
      'ip_limit',
    ]);
  });
});

describe(`only billed clicks use up an IP's allowance, also within one batch (${testDatabaseKind()})`, () => {
  let t: TestApp;

  beforeAll(async () => {
    // One billed click an hour per IP, and a batch that waits a second for others to join.
    t = await startTestApp({
      ...PRODUCTION_RULES,
      CLICK_MIN_SECONDS: '0',
      CLICK_IP_LIMIT_PER_HOUR: '1',
      CLICK_FLUSH_MS: '1000',
    });
  });
  afterAll(() => t.close());

  it('bills the next click of an IP whose earlier click in the same batch went unbilled (campaign_inactive)', async () => {
    const publisher = await t.f.publisherWithKey();
    const serveLink = async (keywords: string) =>
      campaignLink(await t.fetchAds(publisher.key, ask(keywords)));
    const paused = await t.f.campaign({ keywords: 'paused kite' });
    const open = await t.f.campaign({ keywords: 'open kite' });
    const third = await t.f.campaign({ keywords: 'third kite' });
    const links = [
      await serveLink('paused kite'),
      await serveLink('open kite'),
      await serveLink('third kite'),
    ];
    await t.app.get(CampaignsService).updateCampaign(paused.id, { status: 'paused' });
    const follow = (link: string) =>
      fetch(link, {
        redirect: 'manual',
        headers: { 'x-forwarded-for': '203.0.113.7', 'user-agent': BROWSER_UA },
      });

    // In this order, within the batch's one-second wait: the paused campaign's click first.
    const responses: Promise<Response>[] = [];
    for (const link of links) {
      responses.push(follow(link));
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect((await Promise.all(responses)).map((r) => r.status)).toEqual([302, 302, 302]);

    const clicks = await t.dataSource.getRepository(Click).find();
    const outcome = (campaign: Campaign) => {
      const click = clicks.find((c) => c.campaignId === campaign.id)!;
      return click.invalidReason ?? click.status;
    };
    expect([outcome(paused), outcome(open), outcome(third)]).toEqual([
      'campaign_inactive',
      'billed',
      'ip_limit',
    ]);
    // All three were judged together.
    expect(t.app.get(ClickRecorder).stats.batches).toBe(1);
  });
});
