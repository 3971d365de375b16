import { marked } from 'marked';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { PasswordHasher } from '@/auth/password-hasher.service';
import { AdvertisersService } from '@/campaigns/advertisers/advertisers.service';
import { utcDay } from '@/common/clock';
import { DemoSeeder } from '@/demo/demo-seeder.service';
import { FillStatsRecorder } from '@/earnings/fill-stats-recorder.service';
import { PublishersService } from '@/publishers/publishers.service';
import { BROWSER_UA } from '@test/support/ads';
import { expectProblem } from '@test/support/problem';
import { startTestApp, type TestApp } from '@test/support/test-app';
import {
  ConsoleWatch,
  launchChromium,
  type LocalSite,
  screenshots,
  startLocalSite,
} from '@test/browser/browser-support';

const EMAIL = 'barista@example.test';
const PASSWORD = 'a long barista password';
const MODEL = 'Barista Chat';
const BID = '0.40';
/** The publisher's share of a click: 0.40 × 0.7875 = 0.315, an amount with three decimals. */
const REVENUE_SHARE = '0.7875';

/** Money as the dashboard shows it to an en-US browser: US dollars, to the cent. */
const usd = (amount: number) =>
  new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }).format(amount);

/** A day as the charts' x-axis labels it, e.g. "Nov 21". */
const axisDay = (day: Date) =>
  new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' }).format(day);

/** The day labels a chart's x-axis shows, as its canvas lists them. */
const axisLabels = async (page: Page, chart: string) =>
  ((await page.locator(`#${chart}-heading ~ .chart canvas`).getAttribute('data-day-labels')) ?? '')
    .split('|')
    .filter(Boolean);

const text = async (page: Page, selector: string) =>
  (await page.locator(selector).innerText()).trim();

/**
 * Waits until the element shows the text: the dashboard re-renders lists after its requests
 * answer, so reading the text once right after a click races with that render.
 */
const showsText = (locator: Locator, expected: string) =>
  locator.filter({ hasText: expected }).waitFor({ timeout: 10_000 });

describe('the publisher dashboard in Chromium', () => {
  let t: TestApp;
  let site: LocalSite;
  let browser: Browser;
  let context: BrowserContext;

  beforeAll(async () => {
    [t, site, browser] = await Promise.all([
      startTestApp({ DEFAULT_REVENUE_SHARE: REVENUE_SHARE }),
      startLocalSite(),
      launchChromium(),
    ]);
    // A person's Chrome: headless Chromium names itself in its user agent, and a click from
    // a known bot is recorded but never billed.
    context = await browser.newContext({
      userAgent: BROWSER_UA,
      locale: 'en-US',
      timezoneId: 'UTC',
      viewport: { width: 1280, height: 800 },
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await site?.close();
    await t?.close();
  });

  it('lets the demo publisher that a first start prints sign in', async () => {
    const demo = await t.app.get(DemoSeeder).seedIfEmpty();
    expect(demo).not.toBeNull();
    const login = await t.http('/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: demo?.publisherEmail, password: demo?.publisherPassword }),
    });
    expect(login.status).toBe(200);
  });

  it('is one page at /dashboard and /dashboard/, with a strict CSP and long-lived assets', async () => {
    for (const path of ['/dashboard', '/dashboard/']) {
      const response = await t.http(path);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/html');
      expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(await response.text()).toContain('name="adline-session" content="absent"');
    }
    const page = await (
      await t.http('/dashboard', { headers: { cookie: 'adline_session=anything' } })
    ).text();
    expect(page).toContain('name="adline-session" content="present"');
    const script = /src="(\/dashboard\/assets\/app-\w+\.js)"/.exec(page)?.[1] ?? 'no script';
    const asset = await t.http(script);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toContain('javascript');
    expect(asset.headers.get('cache-control')).toContain('immutable');
    await expectProblem(await t.http('/dashboard/assets/missing.js'), 404, 'not_found');
    const openapi = (await (await t.http('/docs/openapi.json')).json()) as { paths: object };
    expect(Object.keys(openapi.paths).filter((p) => p.startsWith('/dashboard'))).toEqual([]);
  });

  it('takes a new publisher from sign-up to a billed click, then revokes the key', async () => {
    const advertiser = await t.app.get(AdvertisersService).create('Espresso Gear Ltd');
    const campaign = await t.f.campaign({
      advertiserId: advertiser.id,
      name: 'Espresso Gear',
      text: 'Grinders and machines for the perfect shot.',
      keywords: 'espresso, coffee',
      bid: BID,
      targetUrl: `${site.url}/landing`,
    });
    const page = await context.newPage();
    const watch = new ConsoleWatch(page);

    // Signed out, the dashboard opens on the sign-in page.
    await page.goto(`${t.baseUrl}/dashboard`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await screenshots(page, '01-sign-in');

    // Sign up; the server's field errors appear beside their fields.
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByRole('heading', { name: 'Create a publisher account' }).waitFor();
    await page.getByLabel('Publisher name').fill('Barista AI');
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill('short');
    watch.expect(/status of 400/);
    await page.getByRole('button', { name: 'Create account' }).click();
    const passwordError = page.locator('#signup-password-error');
    await passwordError.waitFor();
    expect(await passwordError.innerText()).toContain('at least 10 characters');
    expect(await page.getByLabel('Password').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('Password').getAttribute('aria-describedby')).toContain(
      'signup-password-error',
    );
    await screenshots(page, '02-sign-up-errors');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();

    // No models yet: an empty state that leads to the first one.
    await page.getByRole('heading', { name: 'No models yet' }).waitFor();
    await screenshots(page, '03-models-empty');
    expect(
      await page.evaluate('Object.keys(localStorage).length + Object.keys(sessionStorage).length'),
    ).toBe(0);
    const cookies = await context.cookies(t.baseUrl);
    expect(cookies.find((c) => c.name === 'adline_session')).toMatchObject({
      httpOnly: true,
      sameSite: 'Strict',
    });

    // Register a model.
    await page.getByRole('link', { name: 'Register a model' }).click();
    await page.getByLabel('Name').fill(MODEL);
    await page.getByLabel('Description').fill('Answers questions about coffee.');
    await page.getByLabel('Link').fill('https://barista.example');
    await screenshots(page, '04-model-new');
    await page.getByRole('button', { name: 'Register model' }).click();

    // The model comes with its first key, shown once, with a warning and a copy button.
    const dialog = page.getByRole('dialog', { name: 'Your new API key' });
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain('it will not be shown again');
    expect(await dialog.getByLabel(/API key/).inputValue()).toMatch(/^adl_live_/);
    expect(await page.locator('.notice').innerText()).toContain('registered');
    await screenshots(page, '05-first-key');
    await dialog.getByRole('button', { name: 'I have stored the key' }).click();
    await dialog.waitFor({ state: 'detached' });
    await showsText(page.locator('tbody tr', { hasText: 'default' }), 'Active');
    const modelId = /#\/models\/([^/]+)\/keys/.exec(page.url())?.[1] ?? '';
    expect(modelId).not.toBe('');

    // Generate a second key, for production: shown once, copied with the copy button.
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: t.baseUrl });
    await page.getByLabel('Label for a new key').fill('production');
    await page.getByRole('button', { name: 'Generate key' }).click();
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain('it will not be shown again');
    const key = await dialog.getByLabel(/API key/).inputValue();
    expect(key).toMatch(/^adl_live_/);
    await dialog.getByRole('button', { name: 'Copy key' }).click();
    await dialog.getByText('Copied to the clipboard.').waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(key);
    await screenshots(page, '06-key-created');
    await dialog.getByRole('button', { name: 'I have stored the key' }).click();
    await dialog.waitFor({ state: 'detached' });
    const keyRow = page.locator('tbody tr', { hasText: 'production' });
    await showsText(keyRow, key.slice(0, 12));
    await showsText(keyRow, 'Active');
    await showsText(keyRow, 'Never');
    await showsText(keyRow, 'Live');

    // A test key, to build the integration with: chosen in the form, marked in the list.
    await page.getByLabel('Label for a new key').fill('sandbox');
    await page.getByLabel('Kind', { exact: true }).selectOption('test');
    await page.getByRole('button', { name: 'Generate key' }).click();
    const testDialog = page.getByRole('dialog', { name: 'Your new test key' });
    await testDialog.waitFor();
    expect(await testDialog.innerText()).toContain('nothing is billed');
    const testKey = await testDialog.getByLabel(/API key/).inputValue();
    expect(testKey).toMatch(/^adl_test_/);
    await testDialog.getByRole('button', { name: 'I have stored the key' }).click();
    await testDialog.waitFor({ state: 'detached' });
    await showsText(page.locator('tbody tr', { hasText: 'sandbox' }), 'Test');
    await screenshots(page, '07-keys');

    // The publisher's backend asks for an ad; the reply with it is shown to a person who
    // clicks the ad and lands on the advertiser's page.
    const answer = await t.fetchAds(key, {
      conversation: 'How do I pull a better espresso shot?',
      context_keywords: 'espresso, coffee',
    });
    expect(answer.status).toBe(200);
    const { advertisements } = (await answer.json()) as {
      advertisements: { campaign_markdown: string }[];
    };
    const reply = `Grind finer and tamp evenly.${advertisements[0].campaign_markdown}`;
    site.setReply(await marked.parse(reply));
    const reader = await context.newPage();
    const readerConsole = new ConsoleWatch(reader);
    await reader.goto(`${site.url}/reply`);
    await reader.getByRole('link', { name: 'Espresso Gear' }).click();
    // The advertiser's page, with the click id the redirect adds to its query.
    await reader.waitForURL((url) => url.pathname === '/landing');
    await reader.getByRole('heading', { name: 'Welcome to Espresso Gear' }).waitFor();
    await reader.close();

    // The test key gets an ad too; the statistics show it apart from the billable figures.
    expect(
      (await t.fetchAds(testKey, { conversation: 'Espresso?', context_keywords: 'espresso' }))
        .status,
    ).toBe(200);
    // The two requests' outcomes are counted in memory and written every few seconds; now.
    await t.app.get(FillStatsRecorder).flush();

    // The statistics show the impression, the click and the publisher's share of the bid.
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Statistics' })
      .click();
    await page.locator('#per-model').waitFor();
    const share = t.config.defaultRevenueSharePpm / 1e6;
    const earnings = usd(Number(BID) * share);
    // One money format: to the cent, as every other amount on the page.
    expect(earnings).toBe('$0.32');
    expect(await text(page, '#total-impressions')).toBe('1');
    expect(await text(page, '#total-clicks')).toBe('1');
    expect(await text(page, '#total-ctr')).toBe('100%');
    expect(await text(page, '#total-earnings')).toBe(earnings);
    // One request filled for the live key; the test key's is a no-fill of reason test.
    expect(await text(page, '#total-fill-rate')).toBe('50%');
    const modelRow = page.locator('#per-model tbody tr', { hasText: MODEL });
    // RPM: the earnings per 1,000 impressions.
    expect(await modelRow.locator('td').allInnerTexts()).toEqual([
      '1',
      '1',
      '100%',
      earnings,
      usd(Number(BID) * share * 1000),
    ]);
    expect(await text(page, '#test-traffic')).toContain(
      'Test keys in this range: 1 impression and 0 clicks',
    );
    expect(await page.getByLabel('From', { exact: true }).inputValue()).toBe(
      utcDay(new Date(Date.now() - 29 * 86_400_000)),
    );
    expect(await page.getByLabel('To', { exact: true }).inputValue()).toBe(utcDay(new Date()));
    // The last day of the range, today, keeps its label on both charts' axes.
    for (const chart of ['chart-impressions', 'chart-clicks']) {
      const labels = await axisLabels(page, chart);
      expect(labels.length).toBeGreaterThan(2);
      expect(labels.at(-1)).toBe(axisDay(new Date()));
    }
    await screenshots(page, '08-stats');

    // Integration help for the model: snippets with a placeholder, the fallback, the docs.
    await page.getByRole('link', { name: MODEL }).click();
    await page
      .getByRole('navigation', { name: 'Model sections' })
      .getByRole('link', { name: 'Integration' })
      .click();
    await page.getByRole('heading', { name: `Integrate “${MODEL}”` }).waitFor();
    const help = await page.locator('.integration').innerText();
    expect(help).toContain(`curl -s -X POST ${t.baseUrl}/api/fetch-ads`);
    expect(help).toContain('$ADLINE_API_KEY');
    // The client first, then the AI SDK, Python and curl: the README's snippets, for this model.
    expect(help).toContain(`baseUrl: '${t.baseUrl}'`);
    expect(help.indexOf('createAdlineClient')).toBeLessThan(help.indexOf('adlineMiddleware'));
    expect(help.indexOf('adlineMiddleware')).toBeLessThan(help.indexOf('urllib.request'));
    expect(help).toContain(`ADLINE_URL = "${t.baseUrl}/api/fetch-ads"`);
    expect(help).toContain(`The API key of “${MODEL}” stays on your server`);
    expect(help).toContain('While you build, use the test key');
    expect(help).not.toContain(key);
    expect(await page.getByRole('link', { name: 'API documentation' }).getAttribute('href')).toBe(
      '/docs',
    );
    await screenshots(page, '09-integration');

    // Edit the model.
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByLabel('Description').fill('Answers questions about coffee, day and night.');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Changes saved.').waitFor();
    await screenshots(page, '10-settings');

    // Controls: a blocked category and advertiser (picked by name from those shown to the
    // publisher's models, stored by id), blocked keywords and a floor, kept after a reload.
    await page.getByRole('checkbox', { name: 'Politics' }).check();
    await page.getByRole('checkbox', { name: 'Espresso Gear Ltd' }).check();
    await page.getByLabel('Blocked keywords').fill('Casino, payday  loans');
    await page.getByLabel('Relevance floor').fill('0.25');
    await page.getByLabel(/Limit how many ads/).check();
    await page.getByLabel('At most (ads)').fill('2');
    await page.getByLabel('Per (minutes)').fill('30');
    await page.getByRole('button', { name: 'Save controls' }).click();
    await page.getByText('Controls saved.').waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Controls' }).waitFor();
    expect(await page.getByRole('checkbox', { name: 'Politics' }).isChecked()).toBe(true);
    expect(await page.getByRole('checkbox', { name: 'Sports' }).isChecked()).toBe(false);
    expect(await page.getByRole('checkbox', { name: 'Espresso Gear Ltd' }).isChecked()).toBe(true);
    const stored = await page.evaluate<{ controls: { blocked_advertisers: string[] } }>(
      `fetch('/api/models/${modelId}').then((answer) => answer.json())`,
    );
    expect(stored.controls.blocked_advertisers).toEqual([advertiser.id]);
    expect(await page.getByLabel('Blocked keywords').inputValue()).toBe('casino\npayday loans');
    expect(await page.getByLabel('Relevance floor').inputValue()).toBe('0.25');
    expect(await page.getByLabel('At most (ads)').inputValue()).toBe('2');
    expect(await page.getByLabel('Per (minutes)').inputValue()).toBe('30');
    await screenshots(page, '10-controls');

    // Deactivate after a confirmation: the key answers 404 at once; then activate again.
    await page.getByRole('button', { name: 'Deactivate model' }).click();
    const confirmOff = page.getByRole('dialog', { name: `Deactivate “${MODEL}”?` });
    await confirmOff.waitFor();
    await screenshots(page, '11-deactivate-confirm');
    await confirmOff.getByRole('button', { name: 'Deactivate' }).click();
    await page.getByRole('button', { name: 'Activate model' }).waitFor();
    await expectProblem(
      await t.fetchAds(key, { conversation: 'Espresso?', context_keywords: 'espresso' }),
      404,
      'model_inactive',
    );
    await page.getByRole('button', { name: 'Activate model' }).click();
    await page
      .getByRole('dialog', { name: `Activate “${MODEL}”?` })
      .getByRole('button', { name: 'Activate' })
      .click();
    await page.getByRole('button', { name: 'Deactivate model' }).waitFor();

    // Revoke the key after a confirmation: fetch-ads refuses it from then on.
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('button', { name: /^Revoke key .*\(production\)$/ }).click();
    const confirmRevoke = page.getByRole('dialog', { name: /^Revoke key/ });
    await confirmRevoke.waitFor();
    await screenshots(page, '12-revoke-confirm');
    await confirmRevoke.getByRole('button', { name: 'Revoke key' }).click();
    await confirmRevoke.waitFor({ state: 'detached' });
    await showsText(keyRow, 'Revoked');
    await screenshots(page, '13-keys-revoked');
    await expectProblem(
      await t.fetchAds(key, { conversation: 'Espresso?', context_keywords: 'espresso' }),
      404,
      'invalid_api_key',
    );

    // A month of history (roll-ups written directly), for a picture of a busy dashboard.
    await addHistory(t, EMAIL, modelId, campaign.id);
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Statistics' })
      .click();
    await page.locator('#per-model').waitFor();
    await screenshots(page, '14-stats-month');
    // However narrow the chart, its axis labels today.
    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: 800 });
      await page.evaluate(
        'new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))',
      );
      expect([width, (await axisLabels(page, 'chart-clicks')).at(-1)]).toEqual([
        width,
        axisDay(new Date()),
      ]);
    }
    await page.setViewportSize({ width: 1280, height: 800 });

    // Sign out; then sign in again with the keyboard alone.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByText('You have signed out.').waitFor();
    await screenshots(page, '15-signed-out');
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.id')).toBe('signin-email');
    expect(await page.evaluate('getComputedStyle(document.activeElement).outlineStyle')).toBe(
      'solid',
    );
    await page.keyboard.type(EMAIL);
    await page.keyboard.press('Tab');
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Enter');
    // A returning publisher lands on the overview of its earnings.
    await page.getByRole('heading', { name: 'Overview', exact: true }).waitFor();
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Models' })
      .click();
    await page.getByRole('heading', { name: 'Your AI models' }).waitFor();
    const modelLink = page.getByRole('link', { name: MODEL, exact: true });
    await modelLink.waitFor();
    expect(await modelLink.count()).toBe(1);

    expect(watch.errors).toEqual([]);
    expect(readerConsole.errors).toEqual([]);
  }, 180_000);

  it('takes an operator who signs in to the operator console, never to a publisher’s pages', async () => {
    const email = 'operator@example.test';
    const password = 'an operator password';
    await t.app.get(PublishersService).createPublisher({
      email,
      name: 'Operations',
      role: 'admin',
      passwordHash: await t.app.get(PasswordHasher).hash(password),
    });
    // A browser of its own: the journey's publisher is still signed in in the other one.
    const own = await browser.newContext({ locale: 'en-US', timezoneId: 'UTC' });
    const page = await own.newPage();
    const watch = new ConsoleWatch(page);
    await page.goto(`${t.baseUrl}/dashboard`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Campaigns', exact: true }).waitFor();
    expect(await page.locator('main').innerText()).not.toContain('No models yet');
    const nav = page.getByRole('navigation', { name: 'Main' });
    expect(await nav.getByRole('link').allInnerTexts()).toEqual([
      'Campaigns',
      'Advertisers',
      'Publishers',
      'Reports',
      'API docs',
    ]);
    // A publisher's page, asked for by its address, leads to the console.
    await page.goto(`${t.baseUrl}/dashboard#/models/new`);
    await page.waitForURL(/#\/console\/campaigns$/);
    await page.getByRole('heading', { name: 'Campaigns', exact: true }).waitFor();
    await screenshots(page, '16-operator');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByText('You have signed out.').waitFor();
    expect(watch.errors).toEqual([]);
    await own.close();
  });
});

/** Activity on each of the last 30 days for the model and a second one. */
async function addHistory(t: TestApp, email: string, modelId: string, campaignId: string) {
  const publishers = t.app.get(PublishersService);
  const publisher = await publishers.findPublisherByEmail(email);
  if (!publisher) throw new Error('the test publisher is missing');
  const voice = await publishers.createModel(publisher.id, { name: 'Barista Voice' });
  const rows = [];
  for (let daysAgo = 29; daysAgo >= 1; daysAgo--) {
    const day = utcDay(new Date(Date.now() - daysAgo * 86_400_000));
    const wave = 1 + 0.3 * Math.sin(daysAgo / 2);
    for (const [model, scale] of [
      [modelId, 1],
      [voice.id, 0.4],
    ] as const) {
      const impressions = Math.round((180 + 40 * (30 - daysAgo)) * wave * scale);
      const clicks = Math.round(impressions * 0.03);
      rows.push({
        day,
        modelId: model,
        campaignId,
        publisherId: publisher.id,
        impressions,
        clicks,
        spendMicros: clicks * 400_000,
        earningsMicros: clicks * 280_000,
      });
    }
  }
  await t.f.rollup(...rows);
}
