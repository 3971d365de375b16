import { GENERIC_WORDS } from './generic-words';
import { RELEVANCE_TUNING } from '../relevance-tuning';
import { isStopIn, MATCH_LANGUAGES, stemOf, stopWordLanguages } from './language';
import { textWords } from './normalise';
import { KEYS_PER_WORD, NO_KEY, type RequestWord, type WordIndex } from './word-index';

/**
 * A generic word (`GENERIC_WORDS`) weighs a share of its inverse document frequency, in
 * campaign keywords and sent ones alike: "cheap" in "cheap flights" says less than "flights".
 */
export const genericWeight = (): number => RELEVANCE_TUNING.genericWeight;

/** Sent keywords past this many words are read only up to it (a sentence sent as a keyword). */
const MAX_WORDS_PER_KEYWORD = 8;

/** Key strings of the generic words: the exact spelling and the stem in the word's own language. */
const GENERIC_KEYS: ReadonlySet<string> = new Set(
  MATCH_LANGUAGES.flatMap((language) =>
    GENERIC_WORDS[language].flatMap((word) => [
      exactKey(word),
      stemKey(language, stemOf(word, language)),
    ]),
  ),
);

export function exactKey(word: string): string {
  return `=${word}`;
}

export function stemKey(language: string, stem: string): string {
  return `${language}:${stem}`;
}

/** Whether a word (lower case) is generic in any language, by spelling or by stem. */
export function isGenericWord(word: string): boolean {
  if (GENERIC_KEYS.has(exactKey(word))) return true;
  return MATCH_LANGUAGES.some((language) =>
    GENERIC_KEYS.has(stemKey(language, stemOf(word, language))),
  );
}

/**
 * Whether a word is left out of matching in the languages of `languageMask`: a stop word of
 * one of them, or a single letter (the "l" of "l'espagnol").
 */
export function isStopWord(word: string, languageMask: number): boolean {
  return word.length === 1 || isStopIn(stopWordLanguages(word), languageMask);
}

/** Inverse document frequency: rarer words say more. */
export function wordWeight(campaignCount: number, occurrences: number): number {
  return Math.log1p(campaignCount / Math.max(1, occurrences));
}

/**
 * The content words of a sent keyword (stop words of the request's languages left out),
 * each with its keys in `index`: its stems are taken only in the languages of
 * `languageMask` (the conversation's, when it could be told).
 */
export function requestWords(
  index: WordIndex,
  phrase: string,
  languageMask: number,
): RequestWord[] {
  const words: RequestWord[] = [];
  for (const word of textWords(phrase)) {
    if (words.length === MAX_WORDS_PER_KEYWORD) break;
    if (isStopWord(word, languageMask)) continue;
    const keys = new Int32Array(KEYS_PER_WORD).fill(NO_KEY);
    keys[0] = index.keyIds.get(exactKey(word)) ?? NO_KEY;
    let generic = GENERIC_KEYS.has(exactKey(word));
    for (let language = 0; language < MATCH_LANGUAGES.length; language++) {
      if ((languageMask & (1 << language)) === 0) continue;
      const name = MATCH_LANGUAGES[language];
      const key = stemKey(name, stemOf(word, name));
      keys[1 + language] = index.keyIds.get(key) ?? NO_KEY;
      if (GENERIC_KEYS.has(key)) generic = true;
    }
    const partWords = partWordsOf(index, word, languageMask);
    let occurrences = 0;
    let uncommon = partWords.length > 0;
    for (const key of keys) {
      if (key === NO_KEY) continue;
      occurrences = Math.max(occurrences, index.keyOccurrences[key]);
      if (index.keyOccurrences[key] <= index.commonOccurrences) uncommon = true;
    }
    // A word no campaign holds weighs most: a sent keyword about something else entirely.
    const weight = wordWeight(index.campaignCount, occurrences);
    words.push({
      word,
      keys,
      partWords,
      weight: generic ? genericWeight() * weight : weight,
      anchor: uncommon && !generic,
    });
  }
  return words;
}

/** The long words in `index` that a sent word, or its stem in one of the request's languages, begins or ends. */
function partWordsOf(index: WordIndex, word: string, languageMask: number): number[] {
  const found = new Set(index.compounds.holding(word));
  MATCH_LANGUAGES.forEach((language, position) => {
    if ((languageMask & (1 << position)) === 0) return;
    const stem = stemOf(word, language);
    if (stem !== word) for (const id of index.compounds.holding(stem)) found.add(id);
  });
  return [...found];
}
