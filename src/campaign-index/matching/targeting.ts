import { getAlpha2Codes, getAlpha3Codes, getNames, registerLocale } from 'i18n-iso-countries';
import { UAParser } from 'ua-parser-js';
import type { Device } from '@/campaigns/campaigns/devices';
import type { IndexedCampaign } from '@/campaign-index/matching/matching.types';
import de from 'i18n-iso-countries/langs/de.json';
import en from 'i18n-iso-countries/langs/en.json';
import es from 'i18n-iso-countries/langs/es.json';
import fr from 'i18n-iso-countries/langs/fr.json';
import it from 'i18n-iso-countries/langs/it.json';
import nl from 'i18n-iso-countries/langs/nl.json';
import pt from 'i18n-iso-countries/langs/pt.json';

// ---------------------------------------------------------------------------------------
// Country
// ---------------------------------------------------------------------------------------

/** English first: when two languages give one name to different countries, English wins. */
const COUNTRY_NAME_LOCALES = [en, de, fr, es, it, pt, nl];

/** Short forms people write that the library's name lists lack. */
const COUNTRY_ALIASES: Readonly<Record<string, string>> = {
  america: 'US',
  'united states': 'US',
  britain: 'GB',
  england: 'GB',
  scotland: 'GB',
  wales: 'GB',
  'northern ireland': 'GB',
  emirates: 'AE',
  holland: 'NL',
  korea: 'KR',
  burma: 'MM',
  macedonia: 'MK',
  moldova: 'MD',
  syria: 'SY',
  vatican: 'VA',
  'vatican city': 'VA',
  bosnia: 'BA',
  trinidad: 'TT',
  drc: 'CD',
  'dr congo': 'CD',
};

/**
 * One spelling per country name: no accents, case, dots or apostrophes ("U.S.A." → "usa",
 * "Côte d'Ivoire" → "cote divoire"), other punctuation as one space, no leading "the".
 */
function countryLookupKey(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[.'’]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .replace(/^the /, '');
}

/** Built once at load: resolving a location is then a few Map look-ups, no library calls. */
const COUNTRY_BY_KEY = buildCountryLookup();

function buildCountryLookup(): Map<string, string> {
  const lookup = new Map<string, string>();
  const add = (name: string, alpha2: string): void => {
    const key = countryLookupKey(name);
    if (key !== '' && !lookup.has(key)) lookup.set(key, alpha2);
  };
  for (const alpha2 of Object.keys(getAlpha2Codes())) add(alpha2, alpha2);
  for (const [alpha3, alpha2] of Object.entries(getAlpha3Codes())) add(alpha3, alpha2);
  for (const locale of COUNTRY_NAME_LOCALES) {
    registerLocale(locale);
    for (const [alpha2, names] of Object.entries(getNames(locale.locale, { select: 'all' }))) {
      for (const name of names) add(name, alpha2);
    }
  }
  for (const [alias, alpha2] of Object.entries(COUNTRY_ALIASES)) add(alias, alpha2);
  return lookup;
}

/**
 * The ISO 3166-1 alpha-2 code (upper case) of a free-form location such as "DE",
 * "Germany", "Berlin, Germany" or "New York, USA"; null when no country can be read.
 * The country usually comes last, so the comma-separated parts are tried from the end.
 * Known limit: a US state code that is also a country code ("Los Angeles, CA") reads as
 * that country; publishers that want US targeting should send the country too.
 */
export function resolveCountry(userLocation: string | undefined | null): string | null {
  if (userLocation === undefined || userLocation === null) return null;
  const whole = COUNTRY_BY_KEY.get(countryLookupKey(userLocation));
  if (whole !== undefined) return whole;
  const parts = userLocation.split(',');
  if (parts.length === 1) return null;
  for (let index = parts.length - 1; index >= 0; index--) {
    const country = COUNTRY_BY_KEY.get(countryLookupKey(parts[index]));
    if (country !== undefined) return country;
  }
  return null;
}

// ---------------------------------------------------------------------------------------
// Device
// ---------------------------------------------------------------------------------------

/** Words that name the device class itself; they outrank operating-system hints. */
const DEVICE_WORDS: ReadonlyMap<string, Device> = new Map<string, Device>([
  ['tablet', 'tablet'],
  ['ipad', 'tablet'],
  ['kindle', 'tablet'],
  ['tab', 'tablet'],
  ['mobile', 'mobile'],
  ['phone', 'mobile'],
  ['smartphone', 'mobile'],
  ['cellphone', 'mobile'],
  ['handset', 'mobile'],
  ['iphone', 'mobile'],
  ['desktop', 'desktop'],
  ['laptop', 'desktop'],
  ['notebook', 'desktop'],
  ['pc', 'desktop'],
  ['computer', 'desktop'],
  ['workstation', 'desktop'],
  ['chromebook', 'desktop'],
  ['macbook', 'desktop'],
  ['imac', 'desktop'],
]);

/**
 * Operating systems named without a device. iOS and Android also run on tablets, but most
 * of their traffic comes from phones, so they count as mobile: an advertiser who targets
 * mobile expects that traffic, and one who targets tablets needs an explicit tablet signal.
 */
const OPERATING_SYSTEM_WORDS: ReadonlyMap<string, Device> = new Map<string, Device>([
  ['ios', 'mobile'],
  ['android', 'mobile'],
  ['windows', 'desktop'],
  ['mac', 'desktop'],
  ['macos', 'desktop'],
  ['osx', 'desktop'],
  ['linux', 'desktop'],
  ['ubuntu', 'desktop'],
  ['chromeos', 'desktop'],
]);

/** When words disagree ("mobile tablet"), the narrower class wins. */
const DEVICE_PRECEDENCE: readonly Device[] = ['tablet', 'mobile', 'desktop'];

/** Operating systems (as ua-parser-js v1 names them) that only run on desktops and laptops. */
const DESKTOP_OPERATING_SYSTEMS = new Set([
  'windows',
  'mac os',
  'linux',
  'chromium os',
  'chrome os',
  'ubuntu',
  'kubuntu',
  'xubuntu',
  'lubuntu',
  'debian',
  'fedora',
  'suse',
  'opensuse',
  'centos',
  'red hat',
  'redhat',
  'gentoo',
  'arch',
  'mint',
  'manjaro',
  'deepin',
  'elementary os',
  'slackware',
  'mageia',
  'mandriva',
  'solaris',
  'opensolaris',
  'freebsd',
  'netbsd',
  'openbsd',
  'dragonfly',
]);

const USER_AGENT_CACHE_SIZE = 1000;
/** ua-parser-js reads only the first 500 characters; longer strings are not worth caching. */
const MAX_CACHED_USER_AGENT_LENGTH = 500;
/** Publishers resend the same few user agents; parsing one costs ~40 µs, a hit ~0.1 µs. */
const deviceByUserAgent = new Map<string, Device | null>();

/**
 * The device class of `user_device_info`: a plain word ("mobile", "iPad", "Windows laptop")
 * or a full user-agent string. Null when it says nothing usable (bots, TVs, consoles).
 */
export function resolveDevice(userDeviceInfo: string | undefined | null): Device | null {
  if (userDeviceInfo === undefined || userDeviceInfo === null) return null;
  const info = userDeviceInfo.trim();
  if (info === '') return null;
  return looksLikeUserAgent(info) ? cachedDeviceFromUserAgent(info) : deviceFromWords(info);
}

function looksLikeUserAgent(info: string): boolean {
  return /[/();]/.test(info);
}

function deviceFromWords(info: string): Device | null {
  const words = info.toLowerCase().split(/[^a-z0-9]+/);
  const named = new Set<Device>();
  const hinted = new Set<Device>();
  for (const word of words) {
    const device = DEVICE_WORDS.get(word);
    if (device !== undefined) named.add(device);
    const hint = OPERATING_SYSTEM_WORDS.get(word);
    if (hint !== undefined) hinted.add(hint);
  }
  return firstByPrecedence(named.size > 0 ? named : hinted);
}

function firstByPrecedence(devices: ReadonlySet<Device>): Device | null {
  return DEVICE_PRECEDENCE.find((device) => devices.has(device)) ?? null;
}

function cachedDeviceFromUserAgent(userAgent: string): Device | null {
  if (userAgent.length > MAX_CACHED_USER_AGENT_LENGTH) return deviceFromUserAgent(userAgent);
  const cached = deviceByUserAgent.get(userAgent);
  if (cached !== undefined) {
    // Re-inserting moves the entry to the end of the Map's order: the oldest use goes first.
    deviceByUserAgent.delete(userAgent);
    deviceByUserAgent.set(userAgent, cached);
    return cached;
  }
  const device = deviceFromUserAgent(userAgent);
  if (deviceByUserAgent.size >= USER_AGENT_CACHE_SIZE) {
    const leastRecentlyUsed = deviceByUserAgent.keys().next();
    if (leastRecentlyUsed.done !== true) deviceByUserAgent.delete(leastRecentlyUsed.value);
  }
  deviceByUserAgent.set(userAgent, device);
  return device;
}

function deviceFromUserAgent(userAgent: string): Device | null {
  const { device, os } = new UAParser(userAgent).getResult();
  if (device.type === 'mobile' || device.type === 'tablet') return device.type;
  // Consoles, TVs, wearables and embedded devices fit no class a campaign can target.
  if (device.type !== undefined) return null;
  const osName = os.name?.toLowerCase();
  // Not a browser's user agent ("MyApp/2.1 (tablet)"): its words may still say something.
  if (osName === undefined) return deviceFromWords(userAgent);
  if (osName === 'android') return /\bmobile\b/i.test(userAgent) ? 'mobile' : 'tablet';
  if (osName === 'ios') return 'mobile';
  return DESKTOP_OPERATING_SYSTEMS.has(osName) || osName.endsWith('bsd') ? 'desktop' : null;
}

// ---------------------------------------------------------------------------------------
// Targeting rule
// ---------------------------------------------------------------------------------------

/**
 * Whether a campaign may be shown to this user. An empty target list means everyone; a
 * non-empty one needs the request to show a matching value, so an unknown country or
 * device never sees a targeted campaign.
 */
export function matchesTargeting(
  campaign: Pick<IndexedCampaign, 'countries' | 'devices'>,
  country: string | null,
  device: Device | null,
): boolean {
  if (
    campaign.countries.length > 0 &&
    (country === null || !campaign.countries.includes(country))
  ) {
    return false;
  }
  return campaign.devices.length === 0 || (device !== null && campaign.devices.includes(device));
}
