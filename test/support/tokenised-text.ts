import { searchPhrase, textWords } from '@/campaign-index/matching/words/normalise';

/*
 * Whole-word keyword search the plain way, one string test per keyword: the reference the
 * index's conversation scan is checked against in the unit tests. The service never uses
 * it; the index finds conversation keywords in one pass over the words instead.
 */

/**
 * The text as one string of words separated and surrounded by single spaces, so that
 * `tokeniseText(text).includes(' ' + searchPhrase(keyword) + ' ')` finds whole words only.
 */
export function tokeniseText(text: string): string {
  const words = textWords(text);
  return words.length === 0 ? ' ' : ` ${words.join(' ')} `;
}

/** Whether a keyword occurs as whole words in text already passed through `tokeniseText`. */
export function containsKeyword(tokenisedText: string, keyword: string): boolean {
  const phrase = searchPhrase(keyword);
  return phrase !== '' && tokenisedText.includes(` ${phrase} `);
}
