/**
 * The Markdown a publisher appends to its AI reply (`campaign_markdown`).
 *
 * Layout, three paragraphs after a blank line so the ad never merges into the reply's
 * last paragraph, whatever that reply ends with:
 *
 *     (blank line)
 *     **Ad text**
 *     (blank line)
 *     [![Ad name](image URL)](tracking link)      ← or [Ad name](tracking link) without image
 *     (blank line)
 *     _Sponsored · Adline_                        ← the disclosure label, in the reader's language
 *
 * The disclosure line is never left out: it tells the reader that the lines above are an
 * ad (the labels and how a language is chosen: disclosure.ts). The name and text come from
 * advertisers and are escaped so that they render as plain words: they cannot open links,
 * images, HTML, headings, code or a new block, nor close the bold early. Each piece sits on its own line so that emphasis delimiters always touch
 * a line boundary, which is what makes `**…**` bold even when the text starts or ends with
 * an escaped punctuation character.
 */

export interface MarkdownAd {
  name: string;
  text: string;
  imageUrl: string | null;
  /** The tracking link the reader should follow (never the raw target). */
  link: string;
  /** The last line, from `renderAttribution`: built once per language, not per ad. */
  attribution: string;
}

/** Used as link text when an advertiser's name is blank, so the link stays clickable. */
const FALLBACK_LINK_TEXT = 'Learn more';

export function renderAdMarkdown(ad: MarkdownAd): string {
  return completeAdMarkdown(renderAdHead(ad), ad.link, ad.attribution);
}

/** The Markdown of one ad from its campaign's `renderAdHead`, its link and attribution. */
export function completeAdMarkdown(head: string, link: string, attribution: string): string {
  return `${head}${encodeLinkDestination(link)})\n\n${attribution}`;
}

/** What an ad's Markdown takes from its campaign alone: the same for every impression. */
export type CampaignMarkdownParts = Pick<MarkdownAd, 'name' | 'text' | 'imageUrl'>;

/**
 * The Markdown up to its tracking link: the blank line, the bold text, and the link's text
 * (or image) up to the `(` that opens the link's destination. Depends only on the
 * campaign, so it can be rendered once per campaign (`CampaignMarkdown`), not per ad.
 */
export function renderAdHead({ name, text, imageUrl }: CampaignMarkdownParts): string {
  const escapedText = escapeMarkdownText(text);
  const bold = escapedText === '' ? '' : `**${escapedText}**\n\n`;
  const label = escapeMarkdownText(name) || FALLBACK_LINK_TEXT;
  const linkText =
    imageUrl === null || imageUrl === ''
      ? label
      : `![${label}](${encodeLinkDestination(imageUrl)})`;
  return `\n\n${bold}[${linkText}](`;
}

/** The attribution line: the disclosure label and the service's name, in italics. */
export function renderAttribution(label: string, serviceName: string): string {
  return `_${escapeMarkdownText(label)} · ${escapeMarkdownText(serviceName)}_`;
}

// Backslash-escaped: every character CommonMark or GFM gives a meaning inline or at a line
// start (the brief's list), plus `:` and `@` so that GFM does not autolink a bare
// "https://…" or e-mail address, and `$` so that chat UIs with TeX support do not start
// inline maths at a price such as "$5".
const BACKSLASH_ESCAPED = new Set('\\`*_{}[]()#+-.!|~:@$');

// HTML-significant characters become entities instead: an entity is plain text to every
// Markdown renderer, whereas `\<` is only understood by CommonMark-compliant ones.
const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

// Line and paragraph separators (including the Unicode ones some renderers honour) would
// let advertiser text start a new block: a heading, a list, a fence, a link definition.
const LINE_BREAKS_AND_TABS = /[\r\n\t\v\f\u0085\u2028\u2029]+/g;

// C0/C1 control characters and bidirectional overrides, which can hide or reorder what
// the reader sees (e.g. make the text appear to say something about the reply itself).
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const INVISIBLE_CONTROLS = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Makes untrusted text render as exactly itself, inline, in Markdown: one line, no
 * control characters, every Markdown punctuation backslash-escaped and `& < >` as entities.
 * Leading and trailing spaces are dropped because they would stop `**…**` from being bold.
 */
export function escapeMarkdownText(s: string): string {
  const oneLine = s
    .replace(LINE_BREAKS_AND_TABS, ' ')
    .replace(INVISIBLE_CONTROLS, '')
    .replace(/ {2,}/g, ' ')
    .trim();
  let escaped = '';
  for (const char of oneLine) {
    escaped += ENTITIES[char] ?? (BACKSLASH_ESCAPED.has(char) ? `\\${char}` : char);
  }
  return escaped;
}

// Characters that would end or break a link destination: whitespace ends it, `(`/`)` and
// `<`/`>` change how it is delimited, a backslash could escape our closing parenthesis.
// eslint-disable-next-line no-control-regex -- control characters must be encoded too
const UNSAFE_IN_DESTINATION = /[\s()<>\\\u0000-\u001f\u007f]/gu;

/**
 * Percent-encodes what would break `(…)` around a link destination. Only http(s) URLs are
 * accepted: they are ours or validated on the way in, so anything else is a bug and must
 * not become a `javascript:` link in someone's chat.
 */
function encodeLinkDestination(url: string): string {
  if (!/^https?:\/\//i.test(url)) {
    throw new TypeError(`Ad links must be http(s) URLs, got ${JSON.stringify(url)}`);
  }
  return url.replace(UNSAFE_IN_DESTINATION, percentEncode);
}

// encodeURIComponent leaves `(` and `)` alone, so ASCII is encoded by hand.
function percentEncode(char: string): string {
  const code = char.charCodeAt(0);
  return code < 0x80
    ? `%${code.toString(16).toUpperCase().padStart(2, '0')}`
    : encodeURIComponent(char);
}
