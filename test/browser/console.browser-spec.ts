import type { Browser } from 'playwright-core';
import { PasswordHasher } from '@/auth/password-hasher.service';
import { PublishersService } from '@/publishers/publishers.service';
import { BROWSER_UA } from '@test/support/ads';
import { startTestApp, type TestApp } from '@test/support/test-app';
import { checkPage, ConsoleWatch, launchChromium } from '@test/browser/browser-support';

const ADMIN = { email: 'ops@example.test', password: 'an operator password' };
const PUBLISHER = { email: 'pub@example.test', password: 'a publisher password' };

describe('the operator console, in Chromium', () => {
  let t: TestApp;
  let browser: Browser;

  beforeAll(async () => {
    [t, browser] = await Promise.all([
      startTestApp({ ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password }),
      launchChromium(),
    ]);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const signIn = async (who: { email: string; password: string }) => {
    const context = await browser.newContext({
      userAgent: BROWSER_UA,
      locale: 'en-US',
      timezoneId: 'Europe/Berlin',
    });
    const page = await context.newPage();
    const watch = new ConsoleWatch(page);
    await page.goto(`${t.baseUrl}/dashboard`);
    await page.getByLabel('Email').fill(who.email);
    await page.getByLabel('Password').fill(who.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    return { page, watch, close: () => context.close() };
  };
  const ask = (key: string) =>
    t.fetchAds(key, {
      conversation: 'Which espresso grinder should I buy?',
      context_keywords: 'espresso grinder',
    });

  it('lets an operator create an advertiser and a campaign, preview, try, serve, pause it and read its report', async () => {
    const publishers = t.app.get(PublishersService);
    const publisher = await publishers.createPublisher({
      email: PUBLISHER.email,
      name: 'Brew Chat',
      passwordHash: await t.app.get(PasswordHasher).hash(PUBLISHER.password),
      emailVerified: true,
    });
    const model = await publishers.createModel(publisher.id, { name: 'Brew bot' });
    const key = await t.f.apiKey(model.id, 'live');
    const problems: string[] = [];
    const { page, watch, close } = await signIn(ADMIN);

    // Signed in, the operator lands on the console.
    await page.getByRole('heading', { name: 'Campaigns', exact: true }).waitFor();
    const nav = page.getByRole('navigation', { name: 'Main' });
    expect(await nav.getByRole('link').allInnerTexts()).toEqual([
      'Campaigns',
      'Advertisers',
      'Publishers',
      'Reports',
      'API docs',
    ]);
    problems.push(...(await checkPage(page, 'console-campaigns-empty')));

    await nav.getByRole('link', { name: 'Advertisers' }).click();
    await page.getByRole('button', { name: 'New advertiser' }).click();
    await page.getByLabel('Name').fill('Espresso Gear');
    await page.getByRole('button', { name: 'Create advertiser' }).click();
    await page.getByRole('rowheader', { name: 'Espresso Gear' }).waitFor();
    problems.push(...(await checkPage(page, 'console-advertisers')));

    await nav.getByRole('link', { name: 'Campaigns' }).click();
    await page.getByRole('link', { name: 'New campaign' }).click();
    // Every missing field is named at once, beside its input.
    await page.getByRole('button', { name: 'Create campaign' }).click();
    await page.getByText('Choose an advertiser.').waitFor();
    for (const message of [
      'Enter a name.',
      'Enter the ad text.',
      'Add at least one keyword.',
      'Enter a bid above 0.',
    ]) {
      await page.getByText(message).waitFor();
    }
    await page.getByLabel('Advertiser').selectOption({ label: 'Espresso Gear' });
    await page.getByLabel('Name', { exact: true }).fill('Grinders week');
    await page.getByLabel('Ad text').fill('Burr grinders, 20 % off *this week*.');
    await page.getByLabel('Landing page').fill('https://shop.example/grinders');
    await page.getByLabel('Keywords', { exact: true }).fill('espresso grinder');
    await page.getByLabel('Keywords', { exact: true }).press('Enter');
    await page.getByLabel('Bid per click (US$)').fill('0.5');
    await page.getByLabel('Total budget (US$)').fill('100');
    const preview = page.getByTestId('ad-preview');
    await preview.getByText('Burr grinders, 20 % off *this week*.').waitFor();
    expect(await preview.getByRole('link', { name: 'Grinders week' }).getAttribute('href')).toBe(
      'https://shop.example/grinders',
    );
    problems.push(...(await checkPage(page, 'console-campaign-form')));
    await page.getByRole('button', { name: 'Create campaign' }).click();
    await page.getByRole('heading', { name: 'Grinders week' }).waitFor();

    await page
      .getByRole('textbox', { name: 'Conversation' })
      .fill('Which espresso grinder should I buy?');
    await page.getByRole('button', { name: 'Try it' }).click();
    await page.locator('#try-result').getByText('Would be served.').waitFor();
    problems.push(...(await checkPage(page, 'console-campaign')));

    const served = await ask(key);
    expect(served.status).toBe(200);
    expect(
      ((await served.json()) as { advertisements: { campaign_name: string }[] }).advertisements[0]
        .campaign_name,
    ).toBe('Grinders week');

    await page.getByRole('button', { name: 'Pause' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Pause' }).click();
    await page.getByRole('button', { name: 'Resume' }).waitFor();
    expect((await ask(key)).status).toBe(404);
    await page.locator('#audit-trail').getByText('status: active → paused').waitFor();
    // The report counts the impression fetch-ads recorded.
    await page.reload();
    await page.locator('#campaign-report tfoot').getByText('1', { exact: true }).first().waitFor();
    await page.getByRole('textbox', { name: 'Conversation' }).fill('Which espresso grinder?');
    await page.getByRole('button', { name: 'Try it' }).click();
    await page.locator('#try-result').getByText('The campaign is paused.').waitFor();
    problems.push(...(await checkPage(page, 'console-campaign-paused')));

    expect(problems).toEqual([]);
    expect(watch.errors).toEqual([]);
    await close();
  }, 180_000);

  it('shows a publisher no console navigation, and the console’s address leads to its own pages', async () => {
    const { page, watch, close } = await signIn(PUBLISHER);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Overview' }).waitFor();
    expect(await nav.getByRole('link').allInnerTexts()).not.toContain('Campaigns');
    await page.goto(`${t.baseUrl}/dashboard#/console/campaigns`);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    expect(await page.locator('main').innerText()).not.toContain('New campaign');
    expect(watch.errors).toEqual([]);
    await close();
  }, 60_000);
});
