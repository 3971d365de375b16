import type { CompoundWords } from './compound-parts';
import { isStopIn, MATCH_LANGUAGES } from './language';
import { RELEVANCE_TUNING } from '../relevance-tuning';

/**
 * The words of the campaigns' keywords and translations, so that a sent keyword meets
 * campaign keywords not spelled the same ("hotel" → "hotels", "hotel booking"; "apprendre
 * espagnol" → "learn spanish" through its translation). Built by `buildWordIndex`, read by
 * `resolveSentKeywords`. Form, word, key, anchor: docs/relevance.md#glossary.
 */

/** A word's keys: its exact spelling, then its stem in each of `MATCH_LANGUAGES`. */
export const KEYS_PER_WORD = 1 + MATCH_LANGUAGES.length;
export const NO_KEY = -1;

export interface WordIndex {
  /** `=word` (exact) or `<language>:<stem>` → key id. */
  keyIds: ReadonlyMap<string, number>;
  /** Per key: campaign keywords holding it, counted once per (campaign, keyword). */
  keyOccurrences: Float64Array;
  /** Per key: its forms are `keyPostings[keyPostingStart[key] .. keyPostingStart[key + 1])`. */
  keyPostingStart: Int32Array;
  keyPostings: Int32Array;
  /** Per distinct word: its spelling, `KEYS_PER_WORD` keys, weight and stop-word languages. */
  words: readonly string[];
  wordKeys: Int32Array;
  wordWeights: Float64Array;
  /** The long words, for a sent word that is a part of one (`CompoundWords`). */
  compounds: CompoundWords;
  /** Mask of the languages in which the word is left out (`isStopWord`; `languageBit`). */
  wordStopLanguages: Uint8Array;
  /** Per form: the keyword it stands for, whether it is a translation, its words. */
  formKeyword: Int32Array;
  formIsTranslation: Uint8Array;
  formWordStart: Int32Array;
  formWords: Int32Array;
  /** Per keyword id: its forms are `keywordForms[keywordFormStart[id] .. keywordFormStart[id + 1])`. */
  keywordFormStart: Int32Array;
  keywordForms: Int32Array;
  /** Form → its phrase as written, for the forms that are translations. */
  translationForms: ReadonlyMap<number, string>;
  /** A translation phrase as written → the keyword ids it translates. */
  translations: ReadonlyMap<string, readonly number[]>;
  /** Campaigns indexed: the N of the inverse document frequency. */
  campaignCount: number;
  /** A key held by more campaign keywords than this is too common to find forms by. */
  commonOccurrences: number;
}

/** A content word of a sent keyword, looked up in a `WordIndex`. */
export interface RequestWord {
  word: string;
  /** Its key ids in the index, laid out as a form word's (`KEYS_PER_WORD`); `NO_KEY` where none. */
  keys: Int32Array;
  /** Ids of the long words it (or one of its stems) begins or ends (`CompoundWords`). */
  partWords: readonly number[];
  /** Inverse document frequency (a word no campaign holds weighs most), halved when generic. */
  weight: number;
  /** Whether it may find forms by itself: it is in the index, neither generic nor common. */
  anchor: boolean;
}

/** How a word of a form met the request. */
export type WordMatchKind = 'exact' | 'stem' | 'part' | 'conversation';

/** A keyword reached through a translation: the operator's, yet not the words themselves. */
export const translationFactor = (): number => RELEVANCE_TUNING.translationFactor;

/** How well one sent phrase meets one form; null when it does not count as a match. */
export interface FormMatch {
  similarity: number;
  /** Per word of the form, in order: how it met the request, or null. */
  wordMatches: (WordMatchKind | null)[] | null;
}

/**
 * How well a sent phrase (its content words, `words`) meets form `form` when the request is
 * read in the languages of `languageMask`, or null when it is no match: less than
 * `MIN_FORM_COVERAGE` of the form's weight met, a similarity below `MIN_SIMILARITY`, or no
 * anchor word among those that met it (generic and common words never carry a match alone).
 * Word weights are inverse document frequencies, so the rare words of a keyword decide.
 */
export function matchForm(
  index: WordIndex,
  form: number,
  words: readonly RequestWord[],
  sentWeight: number,
  languageMask: number,
  conversationHas: ((word: string) => boolean) | null,
  withWords: boolean,
): FormMatch | null {
  const { formWordStart, formWords, wordKeys, wordWeights, wordStopLanguages } = index;
  let formWeight = 0;
  let metWeight = 0;
  let metRequestWords = 0;
  let anchored = false;
  const wordMatches: (WordMatchKind | null)[] | null = withWords ? [] : null;
  const keepStopWords = onlyStopWords(index, form, languageMask);
  for (let at = formWordStart[form]; at < formWordStart[form + 1]; at++) {
    const word = formWords[at];
    if (!keepStopWords && isStopIn(wordStopLanguages[word], languageMask)) {
      wordMatches?.push(null);
      continue;
    }
    const weight = wordWeights[word];
    formWeight += weight;
    let kind: WordMatchKind | null = null;
    for (let r = 0; r < words.length && kind !== 'exact'; r++) {
      const sent = words[r];
      let matched = matchWord(wordKeys, word, sent.keys, languageMask);
      if (matched === 'stem' && !inflectionApart(sent.word, index.words[word])) matched = null;
      matched ??= matchPart(word, sent);
      if (matched === null) continue;
      if (kind === null || matched === 'exact') kind = matched;
      metRequestWords |= 1 << r;
      if (sent.anchor) anchored = true;
    }
    if (kind === null && conversationHas?.(index.words[word]) === true) kind = 'conversation';
    wordMatches?.push(kind);
    if (kind === 'exact') metWeight += weight;
    else if (kind === 'stem') metWeight += RELEVANCE_TUNING.stemFactor * weight;
    else if (kind === 'part') metWeight += RELEVANCE_TUNING.partFactor * weight;
    else if (kind === 'conversation') {
      metWeight += RELEVANCE_TUNING.conversationWordFactor * weight;
    }
  }
  if (!anchored || formWeight <= 0) return null;
  const formCoverage = metWeight / formWeight;
  if (formCoverage < RELEVANCE_TUNING.minFormCoverage) return null;
  let sentMet = 0;
  for (let r = 0; r < words.length; r++) {
    if ((metRequestWords & (1 << r)) !== 0) sentMet += words[r].weight;
  }
  const { sentSideBase } = RELEVANCE_TUNING;
  const similarity = formCoverage * (sentSideBase + ((1 - sentSideBase) * sentMet) / sentWeight);
  return similarity < RELEVANCE_TUNING.minSimilarity ? null : { similarity, wordMatches };
}

function matchWord(
  wordKeys: Int32Array,
  word: number,
  sentKeys: Int32Array,
  languageMask: number,
): WordMatchKind | null {
  const at = word * KEYS_PER_WORD;
  if (sentKeys[0] !== NO_KEY && sentKeys[0] === wordKeys[at]) return 'exact';
  for (let language = 0; language < MATCH_LANGUAGES.length; language++) {
    if ((languageMask & (1 << language)) === 0) continue;
    const key = sentKeys[1 + language];
    if (key !== NO_KEY && key === wordKeys[at + 1 + language]) return 'stem';
  }
  return null;
}

/** 'part' when the sent word (or its stem) is a leading or trailing part of the form word. */
function matchPart(word: number, sent: RequestWord): 'part' | null {
  return sent.partWords.includes(word) ? 'part' : null;
}

/**
 * Whether two words with one stem are no further apart than an inflection: Snowball's
 * stemmers also strip derivations ("accountability" → "account", "banking" → "bank",
 * "comptabilité" → "compt"), which change the meaning; a plural or case ending adds a few
 * letters at most ("hotel"/"hotels", "puppy"/"puppies", "Schuh"/"Schuhe").
 */
function inflectionApart(a: string, b: string): boolean {
  return Math.abs(a.length - b.length) <= RELEVANCE_TUNING.maxInflectionLetters;
}

/** A form made only of stop words ("the who") keeps them: they are all it has. */
function onlyStopWords(index: WordIndex, form: number, languageMask: number): boolean {
  const { formWordStart, formWords, wordStopLanguages } = index;
  for (let at = formWordStart[form]; at < formWordStart[form + 1]; at++) {
    if (!isStopIn(wordStopLanguages[formWords[at]], languageMask)) return false;
  }
  return true;
}
