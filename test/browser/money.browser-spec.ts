import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { PasswordHasher } from '@/auth/password-hasher.service';
import { utcDay } from '@/common/clock';
import { PublishersService } from '@/publishers/publishers.service';
import { ask, BROWSER_UA, campaignLink, followAsBrowser, followWith } from '@test/support/ads';
import { linkIn, type SmtpInbox, startSmtpInbox } from '@test/support/smtp-inbox';
import { startTestApp, type TestApp } from '@test/support/test-app';
import { checkPage, ConsoleWatch, launchChromium } from '@test/browser/browser-support';

const EMAIL = 'moneypenny@example.test';
const PASSWORD = 'a long moneypenny password';
const MODEL = 'Ledger Chat';
const BID = 0.4;
const SHARE = 0.75;
/** Last month's roll-up: figures as large as a busy publisher's, to test the cards' widths. */
const BIG = { impressions: 78_978_485, clicks: 737_953, earnings: 295_181.24 };

const usd = (amount: number) =>
  new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }).format(amount);

const DAY_MS = 86_400_000;

/** The first day of last month (UTC), e.g. 2026-10-01. */
function lastMonthStart(now = new Date()): string {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  return utcDay(start);
}

const text = async (page: Page, selector: string) =>
  (await page.locator(selector).innerText()).trim();

describe('a publisher’s money and account in the dashboard, in Chromium', () => {
  let t: TestApp;
  let inbox: SmtpInbox;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  const newContext = async () => {
    const context = await browser.newContext({
      userAgent: BROWSER_UA,
      locale: 'en-US',
      timezoneId: 'UTC',
      viewport: { width: 1280, height: 800 },
      acceptDownloads: true,
    });
    contexts.push(context);
    return context;
  };

  beforeAll(async () => {
    inbox = await startSmtpInbox();
    [t, browser] = await Promise.all([
      startTestApp({
        SMTP_URL: inbox.url,
        DEFAULT_REVENUE_SHARE: String(SHARE),
        PAYOUT_THRESHOLD: '0.50',
      }),
      launchChromium(),
    ]);
  }, 60_000);

  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    await t?.close();
    await inbox?.close();
  });

  it('shows the overview, the balance and payouts, the CSV and the unbilled clicks, light and dark, at 1280 and 390 px', async () => {
    // A publisher with a live key, two billed clicks (0.40 × 0.75 each) and a click by curl.
    const publishers = t.app.get(PublishersService);
    const publisher = await publishers.createPublisher({
      email: EMAIL,
      name: 'Moneypenny AI',
      passwordHash: await t.app.get(PasswordHasher).hash(PASSWORD),
      emailVerified: true,
    });
    const model = await publishers.createModel(publisher.id, { name: MODEL });
    const key = await t.f.apiKey(model.id, 'live');
    const campaign = await t.f.campaign({
      name: 'Ledger Pens',
      keywords: 'ledger',
      bid: String(BID),
    });
    for (let i = 0; i < 2; i++) {
      const link = await campaignLink(await t.fetchAds(key, ask('ledger')));
      expect((await followAsBrowser(link)).status).toBe(302);
    }
    const curlLink = await campaignLink(await t.fetchAds(key, ask('ledger')));
    await followWith(curlLink, 'curl/8.5.0');
    const earned = 2 * BID * SHARE;
    // Last month, a busy month: the overview's largest figures.
    await t.f.rollup({
      day: lastMonthStart(),
      modelId: model.id,
      campaignId: campaign.id,
      publisherId: publisher.id,
      impressions: BIG.impressions,
      clicks: BIG.clicks,
      spendMicros: Math.round(BIG.earnings * 1e6 * 1.25),
      earningsMicros: Math.round(BIG.earnings * 1e6),
    });

    // The operator pays part of the balance, and voids a payout made by mistake.
    const operator = await t.f.operator();
    const period = {
      period_start: utcDay(new Date(Date.now() - 30 * DAY_MS)),
      period_end: utcDay(new Date()),
    };
    const paid = await operator.api('POST', `/api/admin/publishers/${publisher.id}/payouts`, {
      amount: 0.2,
      ...period,
      method: 'bank_transfer',
      reference: 'PAY-0001',
    });
    expect(paid.status).toBe(201);
    const mistaken = await operator.api('POST', `/api/admin/publishers/${publisher.id}/payouts`, {
      amount: 0.1,
      ...period,
      method: 'paypal',
      reference: 'PAY-0002',
    });
    expect(mistaken.status).toBe(201);
    const { id: mistakenId } = (await mistaken.json()) as { id: string };
    const voided = await operator.api('POST', `/api/admin/payouts/${mistakenId}/void`, {
      reason: 'Sent to the wrong account',
    });
    expect(voided.status).toBe(200);

    const context = await newContext();
    const page = await context.newPage();
    const watch = new ConsoleWatch(page);
    const problems: string[] = [];

    // Sign in: a publisher lands on the overview.
    await page.goto(`${t.baseUrl}/dashboard`);
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Overview', exact: true }).waitFor();
    await page.locator('#period-today-earnings').waitFor();
    await page.locator('#balance-unpaid').waitFor();
    expect(page.url()).toContain('#/overview');
    expect(await text(page, '#overview-revenue-share')).toBe('75%');
    expect(await text(page, '#period-today-earnings')).toBe(usd(earned));
    // Nothing was earned yesterday: no percentage to compare with.
    expect(await text(page, '#period-today-change')).toContain('Nothing earned yesterday');
    expect(await text(page, '#period-last-month-earnings')).toBe(usd(BIG.earnings));
    expect(await page.locator('#period-last-month').innerText()).toContain('78,978,485');
    // The unpaid balance: earned 0.60, paid 0.20 (the voided 0.10 is not paid); threshold 0.50.
    expect(await text(page, '#balance-unpaid')).toBe(usd(earned - 0.2));
    expect(await text(page, '#balance-threshold')).toBe('$0.50');
    expect(await text(page, '#balance-revenue-share')).toBe('75%');
    expect(await text(page, '#balance-due')).toBe(`${usd(0.5 - (earned - 0.2))} to go`);
    problems.push(...(await checkPage(page, 'money-01-overview')));
    problems.push(...(await checkPage(page, 'money-01-overview', { dark: true })));

    // Payouts: the balance and the history, the voided payout marked with its reason.
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Payouts' })
      .click();
    await page.locator('#payouts').waitFor();
    const rows = page.locator('#payouts tbody tr');
    expect(await rows.count()).toBe(2);
    const voidedRow = rows.filter({ hasText: 'PAY-0002' });
    expect(await voidedRow.innerText()).toContain('Voided');
    expect(await voidedRow.innerText()).toContain('Sent to the wrong account');
    const paidRow = rows.filter({ hasText: 'PAY-0001' });
    expect(await paidRow.innerText()).toContain('$0.20');
    expect(await paidRow.innerText()).toContain('Bank transfer');
    expect(await paidRow.innerText()).toContain('Paid');
    problems.push(...(await checkPage(page, 'money-02-payouts')));
    problems.push(...(await checkPage(page, 'money-02-payouts', { dark: true })));

    // Statistics: RPM, the breakdown, the CSV of the same table, the unbilled clicks.
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Statistics' })
      .click();
    await page.getByRole('button', { name: 'This month' }).click();
    await page.locator('#per-model').waitFor();
    const modelRow = page.locator('#per-model tbody tr', { hasText: MODEL });
    await modelRow.waitFor();
    // 3 impressions, 2 billed clicks; RPM = earnings per 1,000 impressions.
    expect(await modelRow.locator('td').allInnerTexts()).toEqual([
      '3',
      '2',
      '66.67%',
      usd(earned),
      usd((earned / 3) * 1000),
    ]);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download CSV' }).click(),
    ]);
    const csv = readFileSync(await download.path(), 'utf8')
      .trim()
      .split(/\r?\n/);
    expect(csv[0].split(',').slice(0, 6)).toEqual([
      'model_id',
      'impressions',
      'clicks',
      'ctr',
      'rpm',
      'earnings',
    ]);
    expect(csv.find((line) => line.startsWith(model.id))).toMatch(new RegExp(`^${model.id},3,2,`));

    // The curl click: not billed, as "bot", with what it means and what to do.
    const bot = page.locator('#reason-bot');
    await bot.waitFor();
    const botText = await bot.innerText();
    expect(botText).toContain('1');
    expect(botText).toContain('curl');
    expect(await text(page, '#unbilled-total')).toContain('1 click was not billed');
    expect(await page.locator('#unbilled tbody tr').innerText()).toContain(MODEL);
    problems.push(...(await checkPage(page, 'money-03-stats')));
    problems.push(...(await checkPage(page, 'money-03-stats', { dark: true })));

    // Per campaign: the API's own breakdown.
    await page.getByLabel('Breakdown').selectOption('campaign');
    const campaignRow = page.locator('#per-campaign tbody tr', { hasText: 'Ledger Pens' });
    await campaignRow.waitFor();
    expect(await campaignRow.locator('td').first().innerText()).toBe('3');

    // The key dialog asks before Escape throws the key away, and says it is a live key.
    await page.goto(`${t.baseUrl}/dashboard#/models/${model.id}/keys`);
    await page.getByRole('button', { name: 'Generate key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Your new API key' });
    await dialog.waitFor();
    expect(await text(page, '#new-key-kind')).toContain('A live key');
    await page.keyboard.press('Escape');
    await page.locator('#new-key-ask').waitFor();
    expect(await dialog.isVisible()).toBe(true);
    problems.push(...(await checkPage(page, 'money-04-key-ask')));
    await dialog.getByRole('button', { name: 'Back to the key' }).click();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.getByRole('button', { name: 'Close without the key' }).click();
    await dialog.waitFor({ state: 'detached' });

    // The integration snippets stay inside their boxes on a phone.
    await page.goto(`${t.baseUrl}/dashboard#/models/${model.id}/integration`);
    await page.locator('.snippet pre').first().waitFor();
    problems.push(...(await checkPage(page, 'money-05-integration')));

    // Plain-word validation: an empty name says so before any request.
    await page.goto(`${t.baseUrl}/dashboard#/models/new`);
    await page.getByRole('button', { name: 'Register model' }).click();
    expect(await text(page, '#model-name-error')).toContain('Enter a name.');

    // The account page: the revenue share and the change-password form.
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Account' })
      .click();
    await page.getByRole('heading', { name: 'Change password' }).waitFor();
    expect(await text(page, '#account-revenue-share')).toContain('75%');
    problems.push(...(await checkPage(page, 'money-06-account')));
    problems.push(...(await checkPage(page, 'money-06-account', { dark: true })));

    expect(problems).toEqual([]);
    expect(watch.errors).toEqual([]);
  }, 240_000);

  it('verifies a new account’s address and resets a forgotten password through the mail', async () => {
    const email = 'forgetful@example.test';
    const first = 'the first long password';
    const second = 'the second long password';
    const context = await newContext();
    const page = await context.newPage();
    const watch = new ConsoleWatch(page);
    const problems: string[] = [];

    // Sign up: the address is unconfirmed until the mail's link is opened.
    await page.goto(`${t.baseUrl}/dashboard#/signup`);
    await page.getByLabel('Publisher name').fill('Forgetful AI');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(first);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Your AI models' }).waitFor();
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Overview' })
      .click();
    await page.locator('#verify-email').waitFor();
    expect(await page.locator('#verify-email').innerText()).toContain('verify your e-mail');
    problems.push(...(await checkPage(page, 'money-07-verify-notice')));
    const verification = await inbox.waitForMail(email);
    const verifyLink = linkIn(verification);
    expect(verifyLink).toContain('/dashboard/#/verify-email?token=');
    await page.goto(verifyLink);
    await page.getByText('your e-mail address is confirmed').waitFor();
    problems.push(...(await checkPage(page, 'money-08-verified')));
    await page.getByRole('link', { name: 'Go to your overview' }).click();
    await page.getByRole('heading', { name: 'Overview', exact: true }).waitFor();
    expect(await page.locator('#verify-email').count()).toBe(0);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByText('You have signed out.').waitFor();

    // Forgot password: the same answer for any address; the mail's link sets a new one.
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.getByRole('heading', { name: 'Forgot your password?' }).waitFor();
    problems.push(...(await checkPage(page, 'money-09-forgot')));
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send the link' }).click();
    await page.locator('#forgot-sent').waitFor();
    expect(await text(page, '#forgot-sent')).toContain(`If an account uses ${email}`);
    problems.push(...(await checkPage(page, 'money-10-forgot-sent')));
    const reset = await inbox.waitForMail(email);
    const resetLink = linkIn(reset);
    expect(resetLink).toContain('/dashboard/#/reset-password?token=');
    await page.goto(resetLink);
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    await page.getByLabel('New password').fill('short');
    await page.getByRole('button', { name: 'Set new password' }).click();
    expect(await text(page, '#reset-password-error')).toContain('at least 10 characters');
    problems.push(...(await checkPage(page, 'money-11-reset')));
    await page.getByLabel('New password').fill(second);
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByRole('heading', { name: 'Your password has been changed' }).waitFor();
    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(second);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Overview', exact: true }).waitFor();

    // The link works once.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByText('You have signed out.').waitFor();
    watch.expect(/status of 400/);
    await page.goto('about:blank');
    await page.goto(resetLink);
    await page.getByLabel('New password').fill('a third long password');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByRole('heading', { name: 'This link no longer works' }).waitFor();

    expect(problems).toEqual([]);
    expect(watch.errors).toEqual([]);
  }, 120_000);
});
