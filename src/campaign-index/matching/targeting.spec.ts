import type { Device } from '@/campaigns/campaigns/devices';
import {
  matchesTargeting,
  resolveCountry,
  resolveDevice,
} from '@/campaign-index/matching/targeting';

// Delegates to the real parser; only counts how often a user agent is parsed.
jest.mock('ua-parser-js', () => {
  const actual: typeof import('ua-parser-js') = jest.requireActual('ua-parser-js');
  return { UAParser: jest.fn((userAgent?: string) => new actual.UAParser(userAgent)) };
});
const { UAParser: parserSpy } = jest.requireMock<{ UAParser: jest.Mock }>('ua-parser-js');

const USER_AGENTS = {
  iPhoneSafari:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  iPadSafari:
    'Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1',
  androidPhoneChrome:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36',
  androidTabletChrome:
    'Mozilla/5.0 (Linux; Android 13; SM-X700) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
  windowsChrome:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  macSafari:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  linuxFirefox: 'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0',
  chromebook:
    'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  samsungSmartTv:
    'Mozilla/5.0 (SMART-TV; Linux; Tizen 6.0) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/4.0 Chrome/76.0.3809.146 TV Safari/537.36',
  curl: 'curl/8.4.0',
};

describe('resolveCountry', () => {
  it.each([
    ['DE', 'DE'],
    ['de', 'DE'],
    ['DEU', 'DE'],
    ['Germany', 'DE'],
    ['  germany ', 'DE'],
    ['Berlin, Germany', 'DE'],
    ['Paris, FR', 'FR'],
    ['Paris, Île-de-France, France', 'FR'],
    ['New York, USA', 'US'],
    ['New York, NY, U.S.A.', 'US'],
    ['London, UK', 'GB'],
    ['Edinburgh, Scotland', 'GB'],
    ['United States', 'US'],
    ['United States of America', 'US'],
    ['Dubai, UAE', 'AE'],
    ['Abidjan, Côte d’Ivoire', 'CI'],
    ['The Netherlands', 'NL'],
    ['Seoul, Korea, Republic of', 'KR'],
    ['München, Deutschland', 'DE'],
    ['Madrid, España', 'ES'],
  ])('reads %p as %p', (location, country) => {
    expect(resolveCountry(location)).toBe(country);
  });

  it('prefers the country written last over a city part that is also a country code', () => {
    // "IN" alone would be India; the location says the United States.
    expect(resolveCountry('Indianapolis, IN, USA')).toBe('US');
  });

  it.each([undefined, null, '', '   ', 'Berlin', 'Atlantis, Middle Earth', ', ,'])(
    'shows no country for %p',
    (location) => {
      expect(resolveCountry(location)).toBeNull();
    },
  );
});

describe('resolveDevice', () => {
  it.each<[string, Device]>([
    ['mobile', 'mobile'],
    ['Phone', 'mobile'],
    ['smartphone', 'mobile'],
    ['iPhone 15 Pro', 'mobile'],
    ['tablet', 'tablet'],
    ['iPad', 'tablet'],
    ['Samsung Galaxy Tab S9', 'tablet'],
    ['desktop', 'desktop'],
    ['Laptop', 'desktop'],
    ['PC', 'desktop'],
    ['Windows 11 laptop', 'desktop'],
  ])('reads the word %p as %p', (info, device) => {
    expect(resolveDevice(info)).toBe(device);
  });

  it('reads a bare iOS or Android as mobile, since most of those devices are phones', () => {
    expect(resolveDevice('iOS')).toBe('mobile');
    expect(resolveDevice('android')).toBe('mobile');
  });

  it('lets a named device class outrank the operating system', () => {
    expect(resolveDevice('Android tablet')).toBe('tablet');
    expect(resolveDevice('Windows Phone')).toBe('mobile');
  });

  it('reads a desktop operating system named alone as desktop', () => {
    expect(resolveDevice('macOS')).toBe('desktop');
    expect(resolveDevice('Linux')).toBe('desktop');
  });

  it.each<[keyof typeof USER_AGENTS, Device]>([
    ['iPhoneSafari', 'mobile'],
    ['iPadSafari', 'tablet'],
    ['androidPhoneChrome', 'mobile'],
    ['androidTabletChrome', 'tablet'],
    ['windowsChrome', 'desktop'],
    ['macSafari', 'desktop'],
    ['linuxFirefox', 'desktop'],
    ['chromebook', 'desktop'],
  ])('reads the %s user agent as %p', (name, device) => {
    expect(resolveDevice(USER_AGENTS[name])).toBe(device);
  });

  it('reads the words of a user agent that no browser sends', () => {
    expect(resolveDevice('ChatClient/2.1 (desktop app)')).toBe('desktop');
  });

  it.each([undefined, null, '', 'toaster', USER_AGENTS.curl, USER_AGENTS.samsungSmartTv])(
    'shows no device for %p',
    (info) => {
      expect(resolveDevice(info)).toBeNull();
    },
  );

  it('parses a repeated user agent only once', () => {
    const userAgent = `${USER_AGENTS.windowsChrome} repeated`;
    parserSpy.mockClear();
    expect(resolveDevice(userAgent)).toBe('desktop');
    expect(resolveDevice(userAgent)).toBe('desktop');
    expect(parserSpy).toHaveBeenCalledTimes(1);
  });

  it('forgets the least recently used user agent once 1000 others were seen', () => {
    const kept = `${USER_AGENTS.iPhoneSafari} kept`;
    const evicted = `${USER_AGENTS.iPhoneSafari} evicted`;
    resolveDevice(evicted);
    resolveDevice(kept);
    for (let other = 0; other < 999; other++) {
      resolveDevice(`${USER_AGENTS.macSafari} other/${other}`);
      // Using `kept` keeps it the most recently used of the two.
      if (other % 100 === 0) resolveDevice(kept);
    }
    parserSpy.mockClear();
    expect(resolveDevice(kept)).toBe('mobile');
    expect(parserSpy).not.toHaveBeenCalled();
    expect(resolveDevice(evicted)).toBe('mobile');
    expect(parserSpy).toHaveBeenCalledTimes(1);
  });
});

describe('matchesTargeting', () => {
  const everyone = { countries: [], devices: [] };
  const germansOnly = { countries: ['DE', 'AT'], devices: [] };
  const phonesOnly = { countries: [], devices: ['mobile' as const] };
  const germanPhones = { countries: ['DE'], devices: ['mobile' as const] };

  it('shows an untargeted campaign to everyone, known or not', () => {
    expect(matchesTargeting(everyone, null, null)).toBe(true);
    expect(matchesTargeting(everyone, 'US', 'desktop')).toBe(true);
  });

  it('shows a country-targeted campaign only in its countries', () => {
    expect(matchesTargeting(germansOnly, 'AT', null)).toBe(true);
    expect(matchesTargeting(germansOnly, 'FR', null)).toBe(false);
  });

  it('never shows a country-targeted campaign when the country is unknown', () => {
    expect(matchesTargeting(germansOnly, null, 'mobile')).toBe(false);
  });

  it('shows a device-targeted campaign only on its devices', () => {
    expect(matchesTargeting(phonesOnly, null, 'mobile')).toBe(true);
    expect(matchesTargeting(phonesOnly, 'DE', 'tablet')).toBe(false);
  });

  it('never shows a device-targeted campaign when the device is unknown', () => {
    expect(matchesTargeting(phonesOnly, 'DE', null)).toBe(false);
  });

  it('needs both the country and the device when a campaign targets both', () => {
    expect(matchesTargeting(germanPhones, 'DE', 'mobile')).toBe(true);
    expect(matchesTargeting(germanPhones, 'DE', 'desktop')).toBe(false);
    expect(matchesTargeting(germanPhones, 'US', 'mobile')).toBe(false);
  });
});
