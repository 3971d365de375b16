import { isKnownBot } from '@/tracking/bot-detector';

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
// What Playwright's and Puppeteer's bundled Chromium send by default in headless mode.
const PLAYWRIGHT_DEFAULT =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.6778.33 Safari/537.36';
const PUPPETEER_DEFAULT =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/138.0.0.0 Safari/537.36';
const PHANTOMJS =
  'Mozilla/5.0 (Unknown; Linux x86_64) AppleWebKit/538.1 (KHTML, like Gecko) PhantomJS/2.1.1 Safari/538.1';

describe('isKnownBot', () => {
  it.each([
    ['Chrome', CHROME],
    ['Firefox', FIREFOX],
    ['Safari on an iPhone', SAFARI_IPHONE],
  ])('bills a click from %s', (_label, userAgent) => {
    expect(isKnownBot(userAgent)).toBe(false);
  });

  it.each([
    ['Playwright (default headless user agent)', PLAYWRIGHT_DEFAULT],
    ['Puppeteer (default headless user agent)', PUPPETEER_DEFAULT],
    ['a bare HeadlessChrome token', 'HeadlessChrome/131.0'],
    ['PhantomJS', PHANTOMJS],
    ['a browser naming Playwright', `${CHROME} Playwright/1.49.0`],
    ['a bare Puppeteer token', 'Puppeteer'],
    ['Googlebot', 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'],
    ['Bingbot', 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)'],
    ['a Slack link preview', 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)'],
    ['curl', 'curl/8.5.0'],
    ['python requests', 'python-requests/2.32.3'],
  ])('never bills a click from %s', (_label, userAgent) => {
    expect(isKnownBot(userAgent)).toBe(true);
  });

  it.each([
    ['missing', undefined],
    ['null', null],
    ['empty', ''],
    ['blank', '   '],
  ])('never bills a click whose user agent is %s', (_label, userAgent) => {
    expect(isKnownBot(userAgent)).toBe(true);
  });
});
