import Negotiator from 'negotiator';
import {
  DEFAULT_DISCLOSURE_LOCALE,
  DISCLOSURE_LABELS,
  type DisclosureLocale,
} from '@/campaigns/campaigns/disclosure-labels';
import { renderAttribution } from './ad-markdown';

/** What every ad carries to say it is one, in one language. */
export interface Disclosure {
  /** The `disclosure` field: "Sponsored", "Anzeige", … */
  label: string;
  /** The last line of `campaign_markdown`: `_Sponsored · Adline_`. */
  attribution: string;
}

// Default first: negotiator prefers the earlier of equally acceptable languages, so
// `Accept-Language: *` gets English.
const LOCALES = Object.keys(DISCLOSURE_LABELS) as DisclosureLocale[];

const isLocale = (language: string): language is DisclosureLocale =>
  Object.hasOwn(DISCLOSURE_LABELS, language);

/** The primary language of a BCP 47 tag, if there is a label for it ("fr-CA" → fr). */
export function localeOfTag(tag: string): DisclosureLocale | null {
  const hyphen = tag.indexOf('-');
  const language = (hyphen === -1 ? tag : tag.slice(0, hyphen)).toLowerCase();
  return isLocale(language) ? language : null;
}

// A browser's header is a few dozen characters; anything past this many is cut at the last
// comma before it, so a huge header costs no more to negotiate than a normal one.
const MAX_HEADER_CHARS = 256;

/**
 * The best language of an `Accept-Language` header that has a label, by q-value and then
 * order (RFC 9110 §12.5.4, by the `negotiator` package: "fr-CA" is served by fr, `q=0`
 * refuses a language, `*` takes any); `null` when the header accepts none of them.
 */
export function localeOfAcceptLanguage(header: string): DisclosureLocale | null {
  const ranges =
    header.length <= MAX_HEADER_CHARS
      ? header
      : header.slice(0, header.lastIndexOf(',', MAX_HEADER_CHARS) + 1);
  const best = new Negotiator({ headers: { 'accept-language': ranges } }).language(LOCALES);
  return best !== undefined && isLocale(best) ? best : null;
}

// Publishers send the same few headers again and again (often none, or one per app), so
// each distinct one is negotiated once. The bound keeps memory flat against a caller that
// sends a new header every time: past it, the cache starts over.
const MAX_CACHED_HEADERS = 1_000;

/**
 * The disclosure of each language, built once at start-up with the service's name, and
 * the choice between them per request: the request's `locale` if it names a language with
 * a label, otherwise none; without `locale`, the `Accept-Language` header; English when
 * neither names one.
 */
export class Disclosures {
  private readonly byLocale: ReadonlyMap<DisclosureLocale, Disclosure>;
  private readonly byHeader = new Map<string, Disclosure>();

  constructor(serviceName: string) {
    this.byLocale = new Map(
      LOCALES.map((locale) => {
        const label = DISCLOSURE_LABELS[locale];
        return [locale, { label, attribution: renderAttribution(label, serviceName) }];
      }),
    );
  }

  for(locale: string | undefined, acceptLanguage: string | undefined): Disclosure {
    if (locale !== undefined) return this.of(localeOfTag(locale));
    if (acceptLanguage === undefined || acceptLanguage === '') return this.of(null);
    let disclosure = this.byHeader.get(acceptLanguage);
    if (disclosure === undefined) {
      disclosure = this.of(localeOfAcceptLanguage(acceptLanguage));
      if (this.byHeader.size >= MAX_CACHED_HEADERS) this.byHeader.clear();
      this.byHeader.set(acceptLanguage, disclosure);
    }
    return disclosure;
  }

  private of(locale: DisclosureLocale | null): Disclosure {
    return this.byLocale.get(locale ?? DEFAULT_DISCLOSURE_LOCALE)!;
  }
}
