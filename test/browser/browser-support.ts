import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';

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
