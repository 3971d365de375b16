/**
 * Keyword translations: phrases an operator gives a campaign keyword in other languages
 * ("learn spanish" → "apprendre l'espagnol", "spanisch lernen"), so that a conversation in
 * one of them reaches the keyword without the matcher guessing. Keys are keywords of the
 * campaign, values its phrases, both normalised with `normaliseKeyword`.
 */
export type KeywordTranslations = Record<string, string[]>;

export const MAX_TRANSLATIONS_PER_KEYWORD = 10;
export const MAX_TRANSLATIONS_PER_CAMPAIGN = 200;
/**
 * The most the stored map may take as JSON (UTF-8 bytes): half of a MySQL TEXT column, so
 * that the campaign's creation audit entry, which holds every field in one TEXT column,
 * still fits beside the keywords and the ad copy. 200 phrases of 100 Latin letters are
 * ~21 KiB; only very long phrases in CJK or other three-byte scripts reach it.
 */
export const MAX_TRANSLATIONS_BYTES = 32 * 1024;

/**
 * The translations of `keywords` only, in the keywords' order, without keys left with no
 * phrase: how a campaign stores them (one spelling of the same map, so that sending it again
 * in another key order changes nothing), and what it keeps when its keywords change and its
 * translations are not sent again.
 */
export function translationsOf(
  keywords: readonly string[],
  translations: KeywordTranslations,
): KeywordTranslations {
  // fromEntries defines own properties, so even a "__proto__" keyword stays a plain key.
  return Object.fromEntries(
    keywords
      .filter((keyword) => Object.hasOwn(translations, keyword))
      .map((keyword) => [keyword, translations[keyword]] as const)
      .filter(([, phrases]) => phrases.length > 0),
  );
}

/** The keys of `translations` that are not keywords of the campaign, in the order sent. */
export function untranslatableKeys(
  keywords: readonly string[],
  translations: KeywordTranslations,
): string[] {
  const targeted = new Set(keywords);
  return Object.keys(translations).filter((key) => !targeted.has(key));
}

/** A key as an error message quotes it: JSON-quoted, and shortened when very long. */
export function quotedKey(key: string): string {
  return JSON.stringify(key.length > 100 ? `${key.slice(0, 100)}…` : key);
}
