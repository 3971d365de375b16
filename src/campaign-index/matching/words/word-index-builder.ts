import { CompoundWords } from './compound-parts';
import { ALL_LANGUAGES, MATCH_LANGUAGES, stemOf, stopWordLanguages } from './language';
import { STEPS_PER_YIELD } from '../build-slices';
import { textWords } from './normalise';
import { exactKey, genericWeight, isGenericWord, stemKey, wordWeight } from './request-words';
import { KEYS_PER_WORD, type WordIndex } from './word-index';

/**
 * A key found in more than this share of the campaigns' keywords (and more than
 * `COMMON_MIN_OCCURRENCES`) is common: it never finds forms by itself, like a generic word.
 * Its list would be long, and a word that many campaigns hold says little about any.
 */
const COMMON_SHARE = 0.01;
const COMMON_MIN_OCCURRENCES = 100;

/**
 * The `WordIndex` of a vocabulary (keyword → id), with `translations` (keyword id → phrases)
 * as more forms of their keywords; `occurrences[id]` is the number of campaigns holding
 * keyword `id`. Yields every `STEPS_PER_YIELD` or so steps, like the rest of the build.
 */
export function* buildWordIndex(
  vocabulary: ReadonlyMap<string, number>,
  translations: ReadonlyMap<number, ReadonlySet<string>>,
  occurrences: Int32Array,
  campaignCount: number,
): Generator<void, WordIndex> {
  const wordIds = new Map<string, number>();
  const formKeyword: number[] = [];
  const formIsTranslation: number[] = [];
  const formWordStart: number[] = [0];
  const formWords: number[] = [];
  const translationIds = new Map<string, number[]>();
  const translationForms = new Map<number, string>();
  let steps = 0;
  const addForm = (phrase: string, keyword: number, isTranslation: boolean): void => {
    formKeyword.push(keyword);
    formIsTranslation.push(isTranslation ? 1 : 0);
    for (const word of textWords(phrase)) {
      let id = wordIds.get(word);
      if (id === undefined) {
        id = wordIds.size;
        wordIds.set(word, id);
      }
      formWords.push(id);
    }
    formWordStart.push(formWords.length);
  };
  for (const [keyword, id] of vocabulary) {
    addForm(keyword, id, false);
    if (++steps % STEPS_PER_YIELD === 0) yield;
  }
  for (const [keyword, phrases] of translations) {
    for (const phrase of phrases) {
      translationForms.set(formKeyword.length, phrase);
      addForm(phrase, keyword, true);
      const ids = translationIds.get(phrase);
      if (ids === undefined) translationIds.set(phrase, [keyword]);
      else if (!ids.includes(keyword)) ids.push(keyword);
    }
    if (++steps % STEPS_PER_YIELD === 0) yield;
  }

  // Keys of each distinct word: its spelling, then its stem in each language.
  const words = [...wordIds.keys()];
  const keyIds = new Map<string, number>();
  const keyOf = (key: string): number => {
    let id = keyIds.get(key);
    if (id === undefined) {
      id = keyIds.size;
      keyIds.set(key, id);
    }
    return id;
  };
  const wordKeys = new Int32Array(words.length * KEYS_PER_WORD);
  const wordStopLanguages = new Uint8Array(words.length);
  const generic = new Uint8Array(words.length);
  for (let word = 0; word < words.length; word++) {
    const spelling = words[word];
    const at = word * KEYS_PER_WORD;
    wordKeys[at] = keyOf(exactKey(spelling));
    MATCH_LANGUAGES.forEach((language, position) => {
      wordKeys[at + 1 + position] = keyOf(stemKey(language, stemOf(spelling, language)));
    });
    wordStopLanguages[word] = spelling.length === 1 ? ALL_LANGUAGES : stopWordLanguages(spelling);
    generic[word] = isGenericWord(spelling) ? 1 : 0;
    if (word % (STEPS_PER_YIELD / 8) === 0) yield;
  }

  /** Calls `visit` with each key of `word`: its spelling, then its stems. */
  const forEachKey = (word: number, visit: (key: number) => void): void => {
    for (let slot = 0; slot < KEYS_PER_WORD; slot++) visit(wordKeys[word * KEYS_PER_WORD + slot]);
  };

  // How many campaign keywords hold each key, and each key's forms.
  const formCount = formKeyword.length;
  const keyOccurrences = new Float64Array(keyIds.size);
  const postingCount = new Int32Array(keyIds.size + 1);
  const lastForm = new Int32Array(keyIds.size).fill(-1);
  for (let form = 0; form < formCount; form++) {
    // A translation is held by the campaigns that hold its keyword.
    const holders = occurrences[formKeyword[form]];
    for (let at = formWordStart[form]; at < formWordStart[form + 1]; at++) {
      forEachKey(formWords[at], (key) => {
        if (lastForm[key] === form) return;
        lastForm[key] = form;
        keyOccurrences[key] += holders;
        postingCount[key + 1]++;
      });
    }
    if (form % STEPS_PER_YIELD === 0) yield;
  }
  const keyPostingStart = new Int32Array(keyIds.size + 1);
  for (let key = 0; key < keyIds.size; key++) {
    keyPostingStart[key + 1] = keyPostingStart[key] + postingCount[key + 1];
  }
  const fill = keyPostingStart.slice(0, keyIds.size);
  const keyPostings = new Int32Array(keyPostingStart[keyIds.size]);
  lastForm.fill(-1);
  for (let form = 0; form < formCount; form++) {
    for (let at = formWordStart[form]; at < formWordStart[form + 1]; at++) {
      forEachKey(formWords[at], (key) => {
        if (lastForm[key] === form) return;
        lastForm[key] = form;
        keyPostings[fill[key]++] = form;
      });
    }
    if (form % STEPS_PER_YIELD === 0) yield;
  }

  // A word weighs as much as its most common key allows: "hotels" no more than "hotel".
  const wordWeights = new Float64Array(words.length);
  for (let word = 0; word < words.length; word++) {
    let most = 0;
    for (let slot = 0; slot < KEYS_PER_WORD; slot++) {
      most = Math.max(most, keyOccurrences[wordKeys[word * KEYS_PER_WORD + slot]]);
    }
    const weight = wordWeight(campaignCount, most);
    wordWeights[word] = generic[word] === 1 ? genericWeight() * weight : weight;
    if (word % STEPS_PER_YIELD === 0) yield;
  }
  yield;
  const compounds = new CompoundWords(words);
  yield;

  const keywordFormStart = new Int32Array(vocabulary.size + 1);
  for (const keyword of formKeyword) keywordFormStart[keyword + 1]++;
  for (let id = 0; id < vocabulary.size; id++) keywordFormStart[id + 1] += keywordFormStart[id];
  const keywordForms = new Int32Array(formCount);
  const formFill = keywordFormStart.slice(0, vocabulary.size);
  for (let form = 0; form < formCount; form++) {
    keywordForms[formFill[formKeyword[form]]++] = form;
    if (form % STEPS_PER_YIELD === 0) yield;
  }

  return {
    keyIds,
    keyOccurrences,
    keyPostingStart,
    keyPostings,
    words,
    wordKeys,
    wordWeights,
    wordStopLanguages,
    compounds,
    formKeyword: Int32Array.from(formKeyword),
    formIsTranslation: Uint8Array.from(formIsTranslation),
    formWordStart: Int32Array.from(formWordStart),
    formWords: Int32Array.from(formWords),
    keywordFormStart,
    keywordForms,
    translations: translationIds,
    translationForms,
    campaignCount,
    commonOccurrences: Math.max(COMMON_MIN_OCCURRENCES, COMMON_SHARE * campaignCount),
  };
}
