import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { PasswordHasher } from '@/auth/password-hasher.service';
import { PublishersService } from '@/publishers/publishers.service';
import { ask, BROWSER_UA, campaignLink, followAsBrowser, followWith } from '@test/support/ads';
import { startTestApp, type TestApp } from '@test/support/test-app';
import { checkPage, ConsoleWatch, launchChromium } from '@test/browser/browser-support';

const ADMIN = { email: 'ops@example.test', password: 'an operator password' };
const BID = 0.4;
const SHARE = 0.75;

describe('the operator console’s publishers and reports, in Chromium', () => {
  let t: TestApp;
  let browser: Browser;

  beforeAll(async () => {
    [t, browser] = await Promise.all([
      startTestApp({
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
        DEFAULT_REVENUE_SHARE: String(SHARE),
        PAYOUT_THRESHOLD: '0.10',
      }),
      launchChromium(),
    ]);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('lets an operator change a publisher’s share, pay, void, suspend and reactivate it, and read the reports', async () => {
    // A publisher with one billed click (0.40 × 0.75 = 0.30) and a click by curl (`bot`).
    const publishers = t.app.get(PublishersService);
    const publisher = await publishers.createPublisher({
      email: 'quill@example.test',
      name: 'Quill Chat',
      passwordHash: await t.app.get(PasswordHasher).hash('a publisher password'),
      emailVerified: true,
    });
    const model = await publishers.createModel(publisher.id, { name: 'Quill bot' });
    const key = await t.f.apiKey(model.id, 'live');
    // A publisher that has earned nothing yet: its balance shows as $0.00, not due.
    await publishers.createPublisher({
      email: 'quillpad@example.test',
      name: 'Quill Pad',
      passwordHash: null,
      emailVerified: true,
    });
    // A model without traffic, deactivated by the publisher: the console lists it too.
    const draft = await publishers.createModel(publisher.id, { name: 'Quill draft' });
    await publishers.setModelStatus(draft.id, 'deactivated', 'publisher');
    await t.f.campaign({ name: 'Fountain Pens', keywords: 'fountain pen', bid: String(BID) });
    const link = await campaignLink(await t.fetchAds(key, ask('fountain pen')));
    expect((await followAsBrowser(link)).status).toBe(302);
    await followWith(await campaignLink(await t.fetchAds(key, ask('fountain pen'))), 'curl/8.5.0');

    const context = await browser.newContext({
      userAgent: BROWSER_UA,
      locale: 'en-US',
      timezoneId: 'UTC',
      acceptDownloads: true,
    });
    const page = await context.newPage();
    const watch = new ConsoleWatch(page);
    const problems: string[] = [];
    await page.goto(`${t.baseUrl}/dashboard`);
    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const nav = page.getByRole('navigation', { name: 'Main' });

    // The list: search finds the publisher with its traffic and its balance (due: ≥ $0.10).
    await nav.getByRole('link', { name: 'Publishers' }).click();
    await page.getByLabel('Search').fill('quill');
    const row = page.locator('#publishers tbody tr', { hasText: 'Quill Chat' });
    await row.getByText('$0.30 (due)').waitFor();
    const idle = page.locator('#publishers tbody tr', { hasText: 'Quill Pad' });
    await idle.getByText('$0.00', { exact: true }).waitFor();
    expect(await row.innerText()).toContain('75%');
    expect(await row.innerText()).toContain('50%'); // one invalid click of two
    await page.getByLabel('Status').selectOption('suspended');
    await page.getByText('No publishers match').waitFor();
    await page.getByLabel('Status').selectOption('');
    problems.push(...(await checkPage(page, 'console-publishers')));

    await row.getByRole('link', { name: 'Quill Chat' }).click();
    await page.getByRole('heading', { name: 'Quill Chat' }).waitFor();
    // Its models with their real status, before anyone changes it; one deactivated (fetch-ads
    // refuses its key), then activated again.
    const models = page.locator('#publisher-models');
    const quillBot = models.locator('tr', { hasText: 'Quill bot' });
    await quillBot.getByText('Active', { exact: true }).waitFor();
    await models
      .locator('tr', { hasText: 'Quill draft' })
      .getByText('Deactivated', { exact: true })
      .waitFor();
    await models.getByRole('button', { name: 'Deactivate Quill bot' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Deactivate' }).click();
    await quillBot.getByText('Deactivated', { exact: true }).waitFor();
    expect((await t.fetchAds(key, ask('fountain pen'))).status).toBe(404);
    await models.getByRole('button', { name: 'Activate Quill bot', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Activate' }).click();
    await quillBot.getByText('Active', { exact: true }).waitFor();

    // The revenue share.
    await page.getByLabel('Revenue share (%)').fill('80');
    await page.getByRole('button', { name: 'Save share' }).click();
    await page.locator('#publisher-share').getByText('80%').waitFor();

    // A payout above the balance: the API's 409, beside the amount.
    watch.expect(/status of 409 \(Conflict\).*\/payouts/);
    await page.getByLabel('Amount (US$)').fill('5');
    await page.getByLabel('Reference').fill('PAY-1');
    await page.getByRole('button', { name: 'Record payout' }).click();
    await page.locator('#payout-amount-error').getByText('exceeds the unpaid balance').waitFor();
    problems.push(...(await checkPage(page, 'console-publisher-payout-error')));
    await page.getByLabel('Amount (US$)').fill('0.25');
    await page.getByRole('button', { name: 'Record payout' }).click();
    const payout = page.locator('#publisher-payouts tbody tr', { hasText: 'PAY-1' });
    await payout.getByText('Paid').waitFor();
    await page.locator('#publisher-balance').getByText('$0.05', { exact: true }).waitFor();
    problems.push(...(await checkPage(page, 'console-publisher')));

    // Void it, with a reason, after a confirmation.
    await payout.getByRole('button', { name: 'Void payout PAY-1' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Void payout' }).click();
    await dialog.getByText('Enter why the payout is voided.').waitFor();
    await dialog.getByLabel('Reason').fill('Sent to the wrong account');
    problems.push(...(await checkPage(page, 'console-publisher-void')));
    await dialog.getByRole('button', { name: 'Void payout' }).click();
    await payout.getByText('Sent to the wrong account').waitFor();
    await page.locator('#publisher-balance').getByText('$0.30 (due)').waitFor();

    // Suspend, with a reason: the publisher's key stops serving; reactivate: it serves again.
    // Both changes stay in the trail, newest first, with who made them and why.
    await page.getByRole('button', { name: 'Suspend' }).click();
    const suspendDialog = page.getByRole('dialog');
    await suspendDialog.getByRole('button', { name: 'Suspend' }).click();
    await suspendDialog.getByText('Enter why the publisher is suspended.').waitFor();
    await suspendDialog.getByLabel('Reason').fill('Bot clicks from Quill bot');
    problems.push(...(await checkPage(page, 'console-publisher-suspend')));
    await suspendDialog.getByRole('button', { name: 'Suspend' }).click();
    await page.locator('#publisher-status').getByText('Suspended').waitFor();
    expect((await t.fetchAds(key, ask('fountain pen'))).status).toBe(404);
    await page.getByRole('button', { name: 'Reactivate' }).click();
    await page.getByRole('dialog').getByLabel('Reason').fill('Traffic checked');
    await page.getByRole('dialog').getByRole('button', { name: 'Reactivate' }).click();
    await page.locator('#publisher-status').getByText('Active').waitFor();
    expect((await t.fetchAds(key, ask('fountain pen'))).status).toBe(200);
    const trail = page.locator('#publisher-audit tbody tr');
    await trail.nth(1).getByText('Bot clicks from Quill bot').waitFor();
    expect(await trail.count()).toBe(2);
    expect(await trail.nth(0).innerText()).toContain('Traffic checked');
    expect(await trail.nth(0).innerText()).toContain('Suspended → Active');
    expect(await trail.nth(1).innerText()).toContain('Active → Suspended');
    expect(await trail.nth(1).innerText()).toContain(ADMIN.email);
    problems.push(...(await checkPage(page, 'console-publisher-audit')));

    // Reports: presets, the tables, the CSV and the invalid clicks by reason.
    await nav.getByRole('link', { name: 'Reports' }).click();
    await page.getByRole('heading', { name: 'Reports', exact: true }).waitFor();
    await page.locator('#report-publishers tbody').getByText('Quill Chat').waitFor();
    await page.locator('#report-reasons').getByText('bot').waitFor();
    problems.push(...(await checkPage(page, 'console-reports')));
    await page.getByRole('button', { name: 'Yesterday' }).click();
    await page.locator('#report-reasons').getByText('No invalid clicks in this range.').waitFor();
    await page.getByRole('button', { name: 'Today' }).click();
    await page.locator('#report-reasons').getByText('bot').waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('#publishers-csv').click(),
    ]);
    const csv = readFileSync(await download.path(), 'utf8')
      .trim()
      .split(/\r?\n/);
    expect(csv[0]).toMatch(/^publisher_id,/);
    expect(csv.find((line) => line.startsWith(publisher.id))).toBeDefined();

    // A campaign's report: chart, table and reasons.
    await page.getByLabel('Campaign', { exact: true }).selectOption({ label: 'Fountain Pens' });
    await page.locator('#campaign-report tfoot').waitFor();
    await page.locator('#campaign-reasons').getByText('bot').waitFor();
    problems.push(...(await checkPage(page, 'console-reports-campaign')));

    expect(problems).toEqual([]);
    expect(watch.errors).toEqual([]);
    await context.close();
  }, 240_000);
});
