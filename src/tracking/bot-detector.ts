import { isbot } from 'isbot';

/**
 * Known-bot check for clicks: a click from a crawler, link previewer, script or headless
 * browser is recorded as invalid and never billed. isbot knows `HeadlessChrome/…` (what
 * Puppeteer and Playwright send unless told otherwise), PhantomJS and the tools' own names,
 * so a publisher cannot bill its own ads by scripting a browser. There is deliberately no
 * switch to bill headless browsers: tests that click in one set an ordinary user agent.
 */
export function isKnownBot(userAgent: string | undefined | null): boolean {
  // Every browser a person uses sends a user agent; only tools leave it out.
  if (userAgent === undefined || userAgent === null || userAgent.trim() === '') return true;
  return isbot(userAgent);
}
