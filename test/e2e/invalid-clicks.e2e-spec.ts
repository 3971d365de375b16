import { In } from 'typeorm';
import { Campaign } from '@/campaigns/entities/campaign.entity';
import { CampaignsService } from '@/campaigns/campaigns.service';
import { LedgerEntry } from '@/earnings/entities/ledger-entry.entity';
import { Click } from '@/tracking/entities/click.entity';
import { Impression } from '@/tracking/entities/impression.entity';
import { ClickRecorder } from '@/tracking/click-recorder.service';
import { ask, BROWSER_UA, campaignLink } from '../support/ads';
import { expectProblem } from '../support/problem';
import { startTestApp, TestApp } from '../support/test-app';
import { testDatabaseKind } from '../support/test-database';

const HEADLESS_CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.6778.33 Safari/537.36';
const PHANTOMJS =
  'Mozilla/5.0 (Unknown; Linux x86_64) AppleWebKit/538.1 (KHTML, like Gecko) PhantomJS/2.1.1 Safari/538.1';

/**
 * The production defaults (CLICK_MIN_SECONDS=1, per IP 1 click a minute per campaign, 10 an
 * hour, 25 a day); the harness relaxes them for other suites. Behind a trusted proxy
 * (127.0.0.1, the test itself), so each simulated person has an IP of their own.
 */
const PRODUCTION_RULES = {
  CLICK_MIN_SECONDS: '',
  CLICK_IP_LIMIT_CAMPAIGN_MINUTE: '',
  CLICK_IP_LIMIT_PER_HOUR: '',
  CLICK_IP_LIMIT_PER_DAY: '',
  TRUSTED_PROXIES: '127.0.0.1',
};

describe(`invalid clicks are never billed (${testDatabaseKind()})`, () => {
  let t: TestApp;
  let people = 0;
  let keywordCount = 0;

  beforeAll(async () => {
    t = await startTestApp(PRODUCTION_RULES);
  });
  afterAll(() => t.close());

  /** A new person's IP address. */
  const newPerson = () => {
    people += 1;
    return `198.51.${Math.floor(people / 250)}.${(people % 250) + 1}`;
  };
  const uniqueKeyword = () => `widget${++keywordCount}x`;

  /** Serves `campaign`'s ad to the publisher's model; returns its link and impression id. */
  async function serve(campaign: Campaign, publisherKey: string) {
    const response = await t.fetchAds(publisherKey, {
      conversation: 'Which one should I buy?',
      context_keywords: campaign.keywords.join(', '),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { advertisements: { campaign_link: string }[] };
    const link = body.advertisements[0].campaign_link;
    const impressionId = new URL(link).searchParams.get('imp')!;
    return { link, impressionId };
  }

  /** Moves an impression back in time: as if it had been served `ms` ago. */
  const servedAgo = (impressionId: string, ms: number) =>
    t.dataSource
      .getRepository(Impression)
      .update({ id: impressionId }, { createdAt: new Date(Date.now() - ms) });

  interface Follow {
    ip: string;
    userAgent?: string | null;
    method?: string;
    headers?: Record<string, string>;
  }
  const follow = (link: string, { ip, userAgent = BROWSER_UA, method, headers }: Follow) =>
    fetch(link, {
      method: method ?? 'GET',
      redirect: 'manual',
      headers: {
        'x-forwarded-for': ip,
        ...(userAgent === null ? {} : { 'user-agent': userAgent }),
        ...headers,
      },
    });

  const clicksOn = (impressionId: string) =>
    t.dataSource
      .getRepository(Click)
      .find({ where: { impressionId }, order: { createdAt: 'ASC', id: 'ASC' } });
  const billedOf = async (campaignId: string) => ({
    spent: (await t.dataSource.getRepository(Campaign).findOneByOrFail({ id: campaignId }))
      .spentMicros,
    ledger: await t.dataSource.getRepository(LedgerEntry).countBy({ campaignId }),
  });

  /** A publisher with a key, and a campaign (bid 0.40) only its own keyword matches. */
  async function setUp(options: { budgetTotal?: string } = {}) {
    const publisher = await t.f.publisherWithKey();
    const campaign = await t.f.campaign({
      keywords: uniqueKeyword(),
      bid: '0.40',
      targetUrl: `https://advertiser.example/${keywordCount}`,
      ...options,
    });
    return { publisher, campaign };
  }

  /** Asserts that the follow was redirected to the campaign and recorded, unbilled, for `reason`. */
  async function expectUnbilled(
    response: Response,
    campaign: Campaign,
    impressionId: string,
    reason: string,
  ) {
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe(campaign.targetUrl);
    const clicks = await clicksOn(impressionId);
    expect(clicks.at(-1)).toMatchObject({
      status: 'invalid',
      invalidReason: reason,
      costMicros: 0,
      publisherEarningsMicros: 0,
    });
    expect(await billedOf(campaign.id)).toEqual({ spent: 0, ledger: 0 });
  }

  it('bills a normal browser that clicks a second or more after the ad was served', async () => {
    const { publisher, campaign } = await setUp();
    const { link, impressionId } = await serve(campaign, publisher.key);
    const servedAt = Date.now();
    // A real wait, with the real default of one second.
    while (Date.now() - servedAt < 1100) await new Promise((r) => setTimeout(r, 100));

    const response = await follow(link, { ip: newPerson() });

    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe(campaign.targetUrl);
    expect(await clicksOn(impressionId)).toEqual([
      expect.objectContaining({ status: 'billed', invalidReason: null, costMicros: 400_000 }),
    ]);
    expect(await billedOf(campaign.id)).toEqual({ spent: 400_000, ledger: 3 });
  });

  it('does not bill a click sooner than CLICK_MIN_SECONDS after the ad was served (too_fast), then bills the same person later', async () => {
    const { publisher, campaign } = await setUp();
    const { link, impressionId } = await serve(campaign, publisher.key);
    const ip = newPerson();

    await expectUnbilled(await follow(link, { ip }), campaign, impressionId, 'too_fast');

    await servedAgo(impressionId, 5_000);
    expect((await follow(link, { ip })).status).toBe(302);
    expect((await clicksOn(impressionId)).map((c) => c.status)).toEqual(['invalid', 'billed']);
  });

  const noPerson: [
    string,
    Follow['userAgent'],
    string | undefined,
    Record<string, string>,
    string,
  ][] = [
    ['a HEAD request', BROWSER_UA, 'HEAD', {}, 'head_request'],
    ['a prefetch (Sec-Purpose)', BROWSER_UA, 'GET', { 'sec-purpose': 'prefetch' }, 'prefetch'],
    [
      'a prerender (Sec-Purpose)',
      BROWSER_UA,
      'GET',
      { 'sec-purpose': 'prefetch;prerender' },
      'prefetch',
    ],
    ['a prefetch (Purpose)', BROWSER_UA, 'GET', { purpose: 'prefetch' }, 'prefetch'],
    ['a prefetch (X-Moz)', BROWSER_UA, 'GET', { 'x-moz': 'prefetch' }, 'prefetch'],
    ['headless Chrome', HEADLESS_CHROME, 'GET', {}, 'bot'],
    ['PhantomJS', PHANTOMJS, 'GET', {}, 'bot'],
    ['Puppeteer and Playwright (their default user agent)', HEADLESS_CHROME, 'GET', {}, 'bot'],
    ['a script without a user agent', null, 'GET', {}, 'bot'],
  ];

  it.each(noPerson)(
    'does not bill %s, redirects it, and still bills the person who follows the link next',
    async (_label, userAgent, method, headers, reason) => {
      const { publisher, campaign } = await setUp();
      const { link, impressionId } = await serve(campaign, publisher.key);
      await servedAgo(impressionId, 5_000);
      const ip = newPerson();

      const response = await follow(link, { ip, userAgent, method, headers });

      await expectUnbilled(response, campaign, impressionId, reason);
      // The same link, from the same IP, by a person's browser: billed, so the rule above
      // is what stopped the billing.
      expect((await follow(link, { ip })).status).toBe(302);
      expect((await billedOf(campaign.id)).spent).toBe(400_000);
    },
  );

  /** Alters a signed link's query: each entry replaces a parameter, repeats it (`+name`) or drops it (`-name`). */
  const altered = (link: string, changes: [string, string][]) => {
    const url = new URL(link);
    for (const [name, value] of changes) {
      if (name.startsWith('+')) url.searchParams.append(name.slice(1), value);
      else if (name.startsWith('-')) url.searchParams.delete(name.slice(1));
      else url.searchParams.set(name, value);
    }
    return url.toString();
  };
  const LONG = (n: number) => 'a'.repeat(n);
  type Params = URLSearchParams;
  /** [what, how the served link is altered, the model id kept], from the link's parameters. */
  const alterations: [string, (p: Params) => [string, string][], (p: Params) => string][] = [
    ['sig repeated', () => [['+sig', 'x']], (p) => p.get('model_id')!],
    ['the signed sig given twice', (p) => [['+sig', p.get('sig')!]], (p) => p.get('model_id')!],
    ['imp repeated', () => [['+imp', 'x']], (p) => p.get('model_id')!],
    ['imp of 65 characters', () => [['imp', LONG(65)]], (p) => p.get('model_id')!],
    ['sig of 129 characters', () => [['sig', LONG(129)]], (p) => p.get('model_id')!],
    ['a huge sig (6,000 characters)', () => [['sig', LONG(6000)]], (p) => p.get('model_id')!],
    ['an empty sig', () => [['sig', '']], (p) => p.get('model_id')!],
    ['an empty imp', () => [['imp', '']], (p) => p.get('model_id')!],
    ['model_id repeated', () => [['+model_id', 'other-model']], (p) => p.get('model_id')!],
    ['model_id of 65 characters', () => [['model_id', LONG(65)]], () => LONG(64)],
    ['a huge model_id (6,000 characters)', () => [['model_id', LONG(6000)]], () => LONG(64)],
    ['model_id changed', () => [['model_id', 'other-model']], () => 'other-model'],
    ['model_id empty', () => [['model_id', '']], () => ''],
    ['no model_id at all', () => [['-model_id', '']], () => ''],
  ];

  it.each(alterations)(
    'redirects a link with %s and records it unbilled (bad_signature)',
    async (_label, changes, keptModel) => {
      const { publisher, campaign } = await setUp();
      const { link, impressionId } = await serve(campaign, publisher.key);
      await servedAgo(impressionId, 5_000);
      const params = new URL(link).searchParams;
      const changed = altered(link, changes(params));
      const ip = newPerson();

      const response = await follow(changed, { ip });

      expect(response.status).toBe(302);
      expect(response.headers.get('location')).toBe(campaign.targetUrl);
      const clicks = await t.dataSource.getRepository(Click).findBy({ campaignId: campaign.id });
      expect(clicks).toEqual([
        expect.objectContaining({
          status: 'invalid',
          invalidReason: 'bad_signature',
          impressionId: null,
          modelId: keptModel(params),
          costMicros: 0,
        }),
      ]);
      // The link as served is billed next, from the same IP: the altered one used up nothing.
      expect((await follow(link, { ip })).status).toBe(302);
      expect(await billedOf(campaign.id)).toEqual({ spent: 400_000, ledger: 3 });
    },
  );

  it('bills a signed link whatever targetLink says (repeated, huge, empty)', async () => {
    for (const changes of [
      [['+targetLink', 'https://elsewhere.example/']],
      [['targetLink', `https://elsewhere.example/${LONG(6000)}`]],
      [['targetLink', '']],
    ] as [string, string][][]) {
      const { publisher, campaign } = await setUp();
      const { link, impressionId } = await serve(campaign, publisher.key);
      await servedAgo(impressionId, 5_000);

      const response = await follow(altered(link, changes), { ip: newPerson() });

      expect(response.status).toBe(302);
      expect(response.headers.get('location')).toBe(campaign.targetUrl);
      expect(await billedOf(campaign.id)).toEqual({ spent: 400_000, ledger: 3 });
    }
  });

  it('answers 400 validation_failed and records nothing without a valid campaign_id', async () => {
    const { publisher, campaign } = await setUp();
    const { link } = await serve(campaign, publisher.key);
    const without = (name: string) => {
      const url = new URL(link);
      url.searchParams.delete(name);
      return url.toString();
    };
    const refused = [
      without('campaign_id'),
      altered(link, [['campaign_id', '']]),
      altered(link, [['+campaign_id', campaign.id]]),
      altered(link, [['campaign_id', LONG(65)]]),
    ];
    for (const url of refused) {
      await expectProblem(await follow(url, { ip: newPerson() }), 400, 'validation_failed');
    }
    expect(await t.dataSource.getRepository(Click).countBy({ campaignId: campaign.id })).toBe(0);
  });

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
      await t.app.get(CampaignsService).setStatus(campaign.id, status);

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
    expect(response.headers.get('location')).toBe(campaign.targetUrl);
    expect(await clicksOn(second.impressionId)).toEqual([
      expect.objectContaining({ status: 'over_budget', costMicros: 0 }),
    ]);
    expect(await billedOf(campaign.id)).toEqual({ spent: 400_000, ledger: 3 });
  });

  it('bills one click a minute per campaign from one IP (ip_limit), and other people as usual', async () => {
    const { publisher, campaign } = await setUp();
    const served = [];
    for (let i = 0; i < 3; i++) served.push(await serve(campaign, publisher.key));
    for (const { impressionId } of served) await servedAgo(impressionId, 5_000);
    const ip = newPerson();

    expect((await follow(served[0].link, { ip })).status).toBe(302);
    const again = await follow(served[1].link, { ip });
    expect(again.status).toBe(302);
    expect(again.headers.get('location')).toBe(campaign.targetUrl);
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
    await t.app.get(CampaignsService).setStatus(paused.id, 'paused');
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
