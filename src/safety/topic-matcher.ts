import { decompose } from '@/common/text-folding';
import {
  DECOMPOSE,
  FOLDED_PAIRS,
  foldUnit,
  PAIR,
  UNKNOWN,
  FNV_OFFSET,
  FNV_PRIME,
  FOLDED_UNITS,
  foldedWords,
  wordHash,
} from './folded-words';
import type { SensitiveTopic, TopicList } from './sensitive-topics';

/** A list entry, compiled: its folded words. */
interface Entry {
  words: string[];
  topic: SensitiveTopic;
}

/** An entry longer than this is a sentence, not a phrase; compiling refuses it. */
export const MAX_PHRASE_WORDS = 8;

/** Bits of each filter; ~1,500 keys set ~2% of 2^16. */
const FILTER_BITS = 1 << 16;
/** Map keys are cut to 30 bits so that they stay small integers, which a Map hashes fastest. */
const KEY_MASK = 0x3fffffff;

/** The key of a word pair: the last word's hash mixed with the one before it. */
const pairKey = (previous: number, last: number): number =>
  (Math.imul(previous, 0x9e3779b1) ^ last) & KEY_MASK;

/**
 * Finds list entries as whole words and whole-word phrases in text, in one pass over it.
 * Built once from the lists. The pass folds each character with a table look-up and hashes
 * each word as it goes, allocating nothing. At each word's end one bit of a filter says
 * whether a one-word entry may be this word, and one bit of another whether a phrase may
 * end with this word after the one before it: so common words that end phrases ("for" in
 * "vote for") cost nothing more unless their neighbour fits too. Only a word that passes
 * (a list word, or ~2% of others) looks its entries up, and a phrase's earlier words are
 * then read backwards from the text itself.
 */
export class TopicMatcher {
  private readonly wordFilter = new Uint32Array(FILTER_BITS / 32);
  private readonly pairFilter = new Uint32Array(FILTER_BITS / 32);
  /** One-word entries by their hash, phrases by the key of their last two words. */
  private readonly words = new Map<number, Entry[]>();
  private readonly phrases = new Map<number, Entry[]>();

  constructor(lists: readonly TopicList[]) {
    for (const list of lists) {
      for (const [topic, entries] of Object.entries(list) as [SensitiveTopic, string[]][]) {
        for (const entry of entries) this.add(entry, topic);
      }
    }
  }

  /** Distinct entries compiled. */
  get size(): number {
    let size = 0;
    for (const entries of this.words.values()) size += entries.length;
    for (const entries of this.phrases.values()) size += entries.length;
    return size;
  }

  /** The topic of the first entry found in the text, or null. */
  find(text: string): SensitiveTopic | null {
    const found = this.scan(text, false);
    if (found !== DECOMPOSE) return found;
    // A combining mark or a rarer compatibility form: read again, decomposed (costs a copy).
    const again = this.scan(decompose(text), true);
    return again === DECOMPOSE ? null : again;
  }

  /** `DECOMPOSE` when the text holds a character to decompose first, unless `decomposed`. */
  private scan(text: string, decomposed: boolean): SensitiveTopic | null | typeof DECOMPOSE {
    // Locals: an imported binding is a property read (a getter, once compiled to CommonJS).
    const units = FOLDED_UNITS;
    const unknown = UNKNOWN;
    const toDecompose = DECOMPOSE;
    const twoLetters = PAIR;
    const special = Math.min(UNKNOWN, DECOMPOSE, PAIR);
    const offset = FNV_OFFSET;
    const prime = FNV_PRIME;
    const wordFilter = this.wordFilter;
    const pairFilter = this.pairFilter;
    const length = text.length;
    let wordStart = -1;
    let hash = offset;
    /** The previous word's key, or -1 at the start. */
    let previous = -1;
    // One index past the end, so that a word ending the text ends at a break like others.
    for (let index = 0; index <= length; index++) {
      let folded = index < length ? units[text.charCodeAt(index)] : 0;
      /** The first of two letters that the character folds to ("s" of "ß"), or 0. */
      let first = 0;
      if (folded >= special) {
        if (folded === unknown) folded = foldUnit(text.charCodeAt(index));
        if (folded === twoLetters) {
          const letters = FOLDED_PAIRS.get(text.charCodeAt(index)) as number;
          first = letters >>> 16;
          folded = letters & 0xffff;
        } else if (folded === toDecompose) {
          if (!decomposed) return DECOMPOSE;
          folded = 0;
        }
      }
      if (folded !== 0) {
        if (wordStart < 0) {
          wordStart = index;
          hash = offset;
        }
        if (first !== 0) hash = Math.imul(hash ^ first, prime);
        hash = Math.imul(hash ^ folded, prime);
      } else if (wordStart >= 0) {
        const word = hash & KEY_MASK;
        if (hasBit(wordFilter, word)) {
          const topic = firstMatch(this.words.get(word), text, wordStart, index);
          if (topic !== null) return topic;
        }
        if (previous >= 0) {
          const pair = pairKey(previous, word);
          if (hasBit(pairFilter, pair)) {
            const topic = firstMatch(this.phrases.get(pair), text, wordStart, index);
            if (topic !== null) return topic;
          }
        }
        previous = word;
        wordStart = -1;
      }
    }
    return null;
  }

  private add(entry: string, topic: SensitiveTopic): void {
    const words = foldedWords(entry);
    if (words.length === 0 || words.length > MAX_PHRASE_WORDS) {
      throw new Error(`sensitive-topic entry "${entry}" must have 1-${MAX_PHRASE_WORDS} words`);
    }
    const keys = words.map((word) => wordHash(word) & KEY_MASK);
    const last = keys.length - 1;
    const key = last === 0 ? keys[0] : pairKey(keys[last - 1], keys[last]);
    const byKey = last === 0 ? this.words : this.phrases;
    const entries = byKey.get(key) ?? [];
    const spelled = words.join(' ');
    // The same entry in two lists ("suicide" in English and French) is kept once.
    if (entries.some((e) => e.words.join(' ') === spelled)) return;
    entries.push({ words, topic });
    byKey.set(key, entries);
    setBit(last === 0 ? this.wordFilter : this.pairFilter, key);
  }
}

function hasBit(filter: Uint32Array, key: number): boolean {
  const bit = key & (FILTER_BITS - 1);
  return (filter[bit >>> 5] & (1 << (bit & 31))) !== 0;
}

function setBit(filter: Uint32Array, key: number): void {
  const bit = key & (FILTER_BITS - 1);
  filter[bit >>> 5] |= 1 << (bit & 31);
}

/** The topic of the first entry whose words end at `end`, the last one starting at `start`. */
function firstMatch(
  entries: Entry[] | undefined,
  text: string,
  start: number,
  end: number,
): SensitiveTopic | null {
  if (entries === undefined) return null;
  for (const entry of entries) {
    if (precededBy(text, entry.words, start, end)) return entry.topic;
  }
  return null;
}

/** Whether the words of text that end at `end` (the last one starting at `start`) are `words`. */
function precededBy(text: string, words: string[], start: number, end: number): boolean {
  let wordStart = start;
  let wordEnd = end;
  for (let i = words.length - 1; i >= 0; i--) {
    if (i < words.length - 1) {
      // The previous word: back over the break, then back over its characters.
      wordEnd = wordStart;
      while (wordEnd > 0 && breaksWords(text, wordEnd - 1)) wordEnd--;
      if (wordEnd === 0) return false;
      wordStart = wordEnd;
      while (wordStart > 0 && !breaksWords(text, wordStart - 1)) wordStart--;
    }
    if (!sameWord(text, wordStart, wordEnd, words[i])) return false;
  }
  return true;
}

/** As the scan reads it: only decomposed text is searched backwards past `DECOMPOSE`. */
function breaksWords(text: string, index: number): boolean {
  const folded = FOLDED_UNITS[text.charCodeAt(index)];
  return folded === 0 || folded === DECOMPOSE;
}

/** Whether `text[start, end)` folds to `word` (one character may fold to two letters). */
function sameWord(text: string, start: number, end: number, word: string): boolean {
  let at = 0;
  for (let index = start; index < end; index++) {
    const code = text.charCodeAt(index);
    const folded = FOLDED_UNITS[code];
    if (folded === PAIR) {
      const letters = FOLDED_PAIRS.get(code) as number;
      if (word.charCodeAt(at++) !== letters >>> 16) return false;
      if (word.charCodeAt(at++) !== (letters & 0xffff)) return false;
    } else if (word.charCodeAt(at++) !== folded) {
      return false;
    }
  }
  return at === word.length;
}
