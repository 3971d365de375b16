import { isbot } from 'isbot';

/**
 * Known-bot check for clicks: a click from a crawler, link previewer or script is recorded
 * as invalid and never billed.
 */

export interface BotDetectorOptions {
  /**
   * Treat headless Chromium ("HeadlessChrome/…" in an otherwise ordinary browser user agent)
   * as a person. Our own e2e journey clicks ads in headless Chromium driven by Playwright,
   * and those clicks must be billed like a reader's. isbot flags every "Headless" browser,
   * so a real-world deployment may want to tighten this through configuration.
   */
  allowHeadlessBrowsers: boolean;
}

export type BotDetector = (userAgent: string | undefined | null) => boolean;

// Only the product token is rewritten, so a headless browser that also announces itself
// as a crawler (or a bare "HeadlessChrome/1.0" from a script) is still caught by isbot.
const HEADLESS_CHROME = /\bHeadlessChrome\//g;

export function createBotDetector(options: BotDetectorOptions): BotDetector {
  return (userAgent) => {
    // Every browser a person uses sends a user agent; only tools leave it out.
    if (userAgent === undefined || userAgent === null || userAgent.trim() === '') {
      return true;
    }
    const seen = options.allowHeadlessBrowsers
      ? userAgent.replace(HEADLESS_CHROME, 'Chrome/')
      : userAgent;
    return isbot(seen);
  };
}

export const isKnownBot: BotDetector = createBotDetector({ allowHeadlessBrowsers: true });
