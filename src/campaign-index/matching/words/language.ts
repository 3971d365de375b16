import { stemmer as stemEnglish } from '@orama/stemmers/english';
import { stemmer as stemFrench } from '@orama/stemmers/french';
import { stemmer as stemGerman } from '@orama/stemmers/german';
import { stemmer as stemSpanish } from '@orama/stemmers/spanish';
import { deu, eng, fra, spa } from 'stopword';
import { decompose } from '@/common/text-folding';
import { wordHash } from './normalise';

/**
 * The languages whose words the matcher knows apart from their inflections: a Snowball
 * stemmer and a stop-word list each, both maintained packages (Snowball's rules are decades
 * of linguists' work; hand-written suffix rules would be worse at every edge).
 */
export const MATCH_LANGUAGES = ['en', 'de', 'fr', 'es'] as const;
export type MatchLanguage = (typeof MATCH_LANGUAGES)[number];

const STEMMERS: Record<MatchLanguage, (word: string) => string> = {
  en: stemEnglish,
  de: stemGerman,
  fr: stemFrench,
  es: stemSpanish,
};

const STOP_LISTS: Record<MatchLanguage, readonly string[]> = { en: eng, de: deu, fr: fra, es: spa };

/** Bit of a language in a language mask. */
export const languageBit = (language: MatchLanguage): number =>
  1 << MATCH_LANGUAGES.indexOf(language);
export const ALL_LANGUAGES = (1 << MATCH_LANGUAGES.length) - 1;

/** Stop word → mask of the languages whose list holds it. */
const STOP_WORDS = new Map<string, number>();
for (const language of MATCH_LANGUAGES) {
  for (const word of STOP_LISTS[language]) {
    STOP_WORDS.set(word, (STOP_WORDS.get(word) ?? 0) | languageBit(language));
  }
}
/** The same, by `wordHash`, for scanning a conversation without slicing its words. */
const STOP_WORD_HASHES = new Map<number, number>();
for (const [word, mask] of STOP_WORDS) {
  const hash = wordHash(word);
  STOP_WORD_HASHES.set(hash, (STOP_WORD_HASHES.get(hash) ?? 0) | mask);
}

/**
 * Whether a word whose stop-word languages are `stopLanguages` is left out of matching in
 * the languages of `languageMask`. When the language could not be told (all four), only
 * English stop words and words on two lists or more are: "hat", "war" or "die" are German
 * stop words but English nouns, "con" and "sin" Spanish ones.
 */
export function isStopIn(stopLanguages: number, languageMask: number): boolean {
  if (languageMask !== ALL_LANGUAGES) return (stopLanguages & languageMask) !== 0;
  return (stopLanguages & languageBit('en')) !== 0 || (stopLanguages & (stopLanguages - 1)) !== 0;
}

/** Mask of the languages in which `word` (lower case) is a stop word: 0 when none. */
export function stopWordLanguages(word: string): number {
  return STOP_WORDS.get(word) ?? 0;
}

/**
 * The stem of a word (lower case, one word of `textWords`) in a language, accents and
 * ligatures folded after stemming (the stemmers read accents: "hébergement"), so that
 * "espanol" and "español" share a stem.
 */
export function stemOf(word: string, language: MatchLanguage): string {
  return decompose(STEMMERS[language](word));
}

/** The language of a BCP 47 tag ("fr-CA" → fr) if the matcher knows it, else null. */
export function languageOfTag(tag: string | undefined): MatchLanguage | null {
  if (tag === undefined) return null;
  const hyphen = tag.indexOf('-');
  const primary = (hyphen === -1 ? tag : tag.slice(0, hyphen)).toLowerCase();
  return (MATCH_LANGUAGES as readonly string[]).includes(primary)
    ? (primary as MatchLanguage)
    : null;
}

/** Stop words a text must hold before its language is told from them. */
const MIN_STOP_WORDS = 3;
/** The leading language must hold at least this many times the stop words of the next. */
const LEAD_FACTOR = 1.5;

/** Counts the stop word of `hash` (a `wordHash`), if it is one, for each language holding it. */
export function countStopWord(hash: number, counts: number[]): void {
  const mask = STOP_WORD_HASHES.get(hash);
  if (mask === undefined) return;
  for (let language = 0; language < counts.length; language++) {
    if ((mask & (1 << language)) !== 0) counts[language]++;
  }
}

/**
 * The language of a text told from its stop words ("the", "der", "les", "los"…, counted
 * per language by `countStopWord`), or null when it cannot be told (too few, or two
 * languages close): then every language's stems are tried. Stop words are the most
 * frequent words of a language, so a few sentences tell four languages apart reliably, at
 * one hash look-up per word.
 */
export function languageOfStopWords(counts: readonly number[]): MatchLanguage | null {
  let best = 0;
  for (let language = 1; language < counts.length; language++) {
    if (counts[language] > counts[best]) best = language;
  }
  const runnerUp = Math.max(...counts.filter((_, language) => language !== best));
  if (counts[best] < MIN_STOP_WORDS || counts[best] < LEAD_FACTOR * runnerUp) return null;
  return MATCH_LANGUAGES[best];
}
