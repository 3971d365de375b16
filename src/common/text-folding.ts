/**
 * Accent- and ligature-blind text, for rules that must catch a word however it is typed:
 * the sensitive-topic lists (src/safety) and the refused phrases of campaign copy
 * (src/campaigns/campaigns/ad-copy-rules.ts). Not for campaign keywords, which keep their
 * accents ("café" and "cafe" may be different products).
 */

const MARKS = /\p{M}+/gu;
const LIGATURES = /[ßẞœŒæÆ]/g;
const LIGATURE_SPELLING: Record<string, string> = {
  ß: 'ss',
  ẞ: 'ss',
  œ: 'oe',
  Œ: 'oe',
  æ: 'ae',
  Æ: 'ae',
};

/** The text with accents dropped and ligatures spelled out (case is left to the caller). */
export function decompose(text: string): string {
  return text
    .normalize('NFKD')
    .replace(MARKS, '')
    .replace(LIGATURES, (char) => LIGATURE_SPELLING[char]);
}
