import { BROWSER_UA, withoutClickId } from '@test/support/ads';
import { clickTraffic, type Follow, PRODUCTION_RULES } from '@test/support/click-traffic';
import { startTestApp, TestApp } from '@test/support/test-app';
import { testDatabaseKind } from '@test/support/test-database';

const HEADLESS_CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.6778.33 Safari/537.36';
const PHANTOMJS =
  'Mozilla/5.0 (Unknown; Linux x86_64) AppleWebKit/538.1 (KHTML, like Gecko) PhantomJS/2.1.1 Safari/538.1';

describe(`invalid clicks are never billed (${testDatabaseKind()})`, () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp(PRODUCTION_RULES);
  });
  afterAll(() => t.close());

  const { newPerson, serve, servedAgo, follow, clicksOn, billedOf, setUp, expectUnbilled } =
    clickTraffic(() => t);

  it('bills a normal browser that clicks a second or more after the ad was served', async () => {
    const { publisher, campaign } = await setUp();
    const { link, impressionId } = await serve(campaign, publisher.key);
    const servedAt = Date.now();
    // A real wait, with the real default of one second.
    while (Date.now() - servedAt < 1100) await new Promise((r) => setTimeout(r, 100));

    const response = await follow(link, { ip: newPerson() });

    expect(response.status).toBe(302);
    expect(withoutClickId(response.headers.get('location'))).toBe(campaign.targetUrl);
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
});
