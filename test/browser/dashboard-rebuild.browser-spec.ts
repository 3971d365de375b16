import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { DashboardFiles } from '@/dashboard/dashboard-files';
import { ROOT } from '@test/support/paths';
import { startTestApp, type TestApp } from '@test/support/test-app';
import { ConsoleWatch, launchChromium } from '@test/browser/browser-support';

/** What `npm run test:browser` built before the suites ran: the real dashboard. */
const BUILT_DASHBOARD = join(ROOT, 'dist', 'dashboard');

/**
 * A newcomer's service started before its dashboard was built (or a script rebuilt dist/
 * while it ran): the page says to build and reload, and after the build a reload shows the
 * dashboard, without restarting the service. The service looks in a folder of this suite's
 * own, empty at start-up, and the build is the real one copied in.
 */
describe('a dashboard built after the service started, in Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  let dashboardDir: string;

  beforeAll(async () => {
    dashboardDir = join(mkdtempSync(join(tmpdir(), 'adline-rebuild-')), 'dashboard');
    const located = jest.spyOn(DashboardFiles, 'builtDirectory').mockReturnValue(dashboardDir);
    try {
      [t, browser] = await Promise.all([startTestApp(), launchChromium()]);
    } finally {
      located.mockRestore();
    }
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
    rmSync(join(dashboardDir, '..'), { recursive: true, force: true });
  });

  it('says to build and reload, and after the build a reload shows the sign-in page', async () => {
    const page = await browser.newPage();
    const watch = new ConsoleWatch(page);
    // The browser logs the 503 of the page before the build, and asks that page (written
    // before any build, so naming no icon) for /favicon.ico.
    watch.expect(/503/);
    watch.expect(/favicon\.ico/);
    const before = await page.goto(`${t.baseUrl}/dashboard`);
    expect(before?.status()).toBe(503);
    await page.getByText('npm run build').first().waitFor();

    cpSync(BUILT_DASHBOARD, dashboardDir, { recursive: true });
    const after = await page.reload();
    expect(after?.status()).toBe(200);
    // The page's script and stylesheet, registered nowhere at start-up, load and render it.
    await page.getByRole('heading', { name: 'Sign in' }).waitFor({ timeout: 10_000 });
    await page.getByLabel('Email').waitFor();
    expect(watch.errors).toEqual([]);
  }, 60_000);
});
