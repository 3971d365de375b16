import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import type AxeBuilderType from '@axe-core/playwright';
import { type Browser, chromium, type Page } from 'playwright-core';

/**
 * @axe-core/playwright, whose axe-core bundle runs once on load with `window`, or else its
 * top-level `this`: Jest's transform (swc compiles every module) makes that `this`
 * undefined, so a stand-in window is there while it loads. The browser gets `axe.source`.
 */
function loadAxeBuilder(): typeof AxeBuilderType {
  const scope = globalThis as { window?: unknown };
  const standIn = scope.window === undefined;
  if (standIn) scope.window = {};
  try {
    return (createRequire(__filename)('@axe-core/playwright') as { default: typeof AxeBuilderType })
      .default;
  } finally {
    if (standIn) delete scope.window;
  }
}

const AxeBuilder = loadAxeBuilder();

/** Debian's Chromium (`apt-get install chromium`), never a browser downloaded by a tool. */
const CHROMIUM = '/usr/bin/chromium';

export const SCREENSHOTS = join(__dirname, '..', '..', 'test-artifacts', 'screenshots');

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // Playwright gives each launch a fresh profile. The network flags keep Chromium from
    // calling home, which this machine's closed network would refuse, noisily.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

const WIDTHS = { desktop: { width: 1280, height: 800 }, phone: { width: 360, height: 740 } };

/** Saves the whole page at desktop and phone width: `<name>-desktop.png`, `<name>-phone.png`. */
export async function screenshots(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  for (const [device, size] of Object.entries(WIDTHS)) {
    await page.setViewportSize(size);
    // Let layout and the chart follow the new width before the picture is taken.
    await page.evaluate(
      'new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))',
    );
    await page.screenshot({ path: join(SCREENSHOTS, `${name}-${device}.png`), fullPage: true });
  }
  await page.setViewportSize(WIDTHS.desktop);
}

/** The sizes the money pages are checked at: a laptop and a phone (iPhone 12–15). */
export const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const;

const nextFrames = (page: Page) =>
  page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');

/**
 * The page's accessibility problems as axe-core finds them (WCAG 2.x A and AA, 2.2's target
 * size included), one line per failing rule and element, so a failing test names them.
 */
export async function a11yViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    .analyze();
  return results.violations.flatMap((violation) =>
    violation.nodes.map((node) => `${violation.id}: ${violation.help} at ${node.target.join(' ')}`),
  );
}

/**
 * What sticks out sideways: the page itself wider than the viewport, or an element whose
 * content is wider than its box (`selector` names the figures to check).
 */
export async function horizontalOverflow(page: Page, selector: string): Promise<string[]> {
  return page.evaluate(
    `(() => {
      const found = [];
      const root = document.documentElement;
      if (root.scrollWidth > window.innerWidth) {
        found.push('page: ' + root.scrollWidth + ' > ' + window.innerWidth);
      }
      for (const el of document.querySelectorAll(${JSON.stringify(selector)})) {
        if (el.scrollWidth > el.clientWidth) {
          found.push((el.id || el.className) + ': ' + el.scrollWidth + ' > ' + el.clientWidth + ' (' + el.textContent + ')');
        }
      }
      return found;
    })()`,
  );
}

/** The figures a page shows in cards: none of them may overflow its card. */
export const FIGURES = '.figure__value, .figure__small, .kpi__value, .balance dd, pre';

/**
 * At desktop and phone size: a screenshot (`<name>-desktop.png`, `<name>-phone.png`; with
 * `dark`, `<name>-dark-…` in the dark theme), no axe violation, and at phone size nothing
 * wider than the screen. Returns the problems found, to be expected empty.
 */
export async function checkPage(
  page: Page,
  name: string,
  options: { dark?: boolean } = {},
): Promise<string[]> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const problems: string[] = [];
  await page.emulateMedia({ colorScheme: options.dark ? 'dark' : 'light' });
  const suffix = options.dark ? '-dark' : '';
  for (const [device, size] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(size);
    await nextFrames(page);
    for (const v of await a11yViolations(page)) problems.push(`${name}${suffix} ${device}: ${v}`);
    if (device === 'phone') {
      for (const o of await horizontalOverflow(page, FIGURES)) {
        problems.push(`${name}${suffix} ${device} overflow: ${o}`);
      }
    }
    await page.screenshot({
      path: join(SCREENSHOTS, `${name}${suffix}-${device}.png`),
      fullPage: true,
    });
  }
  await page.setViewportSize(VIEWPORTS.desktop);
  await page.emulateMedia({ colorScheme: 'light' });
  return problems;
}

/**
 * Console errors and uncaught exceptions of a page. An error the test provokes on purpose
 * (e.g. the browser's log line for a 400 answer) is declared with `expect` first.
 */
export class ConsoleWatch {
  private readonly unexpected: string[] = [];
  private readonly expected: RegExp[] = [];

  constructor(page: Page) {
    page.on('console', (message) => {
      if (message.type() === 'error') this.record(`${message.text()} (${message.location().url})`);
    });
    page.on('pageerror', (error) => this.unexpected.push(`uncaught: ${error.message}`));
  }

  expect(pattern: RegExp): void {
    this.expected.push(pattern);
  }

  get errors(): string[] {
    return [...this.unexpected];
  }

  private record(text: string): void {
    const index = this.expected.findIndex((pattern) => pattern.test(text));
    if (index >= 0) this.expected.splice(index, 1);
    else this.unexpected.push(text);
  }
}

/**
 * A tiny web site on 127.0.0.1: `/reply` shows the HTML the test sets (an AI reply with its
 * ad), `/landing` is the advertiser's page the ad leads to.
 */
export interface LocalSite {
  url: string;
  setReply(html: string): void;
  close(): Promise<void>;
}

export async function startLocalSite(): Promise<LocalSite> {
  let reply = '';
  const page = (title: string, body: string) =>
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>` +
    `<link rel="icon" href="data:,"></head><body>${body}</body></html>`;
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    const html =
      path === '/reply'
        ? page('An AI reply', reply)
        : path === '/landing'
          ? page('Espresso Gear', '<h1>Welcome to Espresso Gear</h1>')
          : null;
    response.writeHead(html === null ? 404 : 200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(html ?? 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    setReply: (html) => (reply = html),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
