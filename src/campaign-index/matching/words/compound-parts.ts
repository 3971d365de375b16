import { decompose } from '@/common/text-folding';

/**
 * Long words and their parts (docs/relevance.md#glossary): German and Spanish write in one
 * word what English writes in two, and no maintained package splits compounds of all four
 * languages, so a word's leading and trailing parts stand in. Two sorted arrays of word ids
 * (by spelling, and by reversed spelling, accents folded) instead of a key per part: a
 * 20-letter word has 26 parts, and keys for them all would cost more memory than the rest
 * of the word index.
 */

/**
 * A long word has at least `MIN_COMPOUND_LETTERS`; a part at least `MIN_PART_LETTERS`,
 * leaves at least `MIN_REST_LETTERS` and finds at most `MAX_COMPOUNDS_PER_PART` words (a
 * shorter, commoner part says too little).
 */
const MIN_COMPOUND_LETTERS = 9;
const MIN_PART_LETTERS = 5;
const MIN_REST_LETTERS = 3;
const MAX_COMPOUNDS_PER_PART = 64;

export class CompoundWords {
  /** Folded spellings of the long words, and the same reversed, by word id (others ''). */
  private readonly folded: string[];
  private readonly reversed: string[];
  private readonly byStart: Int32Array;
  private readonly byEnd: Int32Array;

  /** @param words every word of the index, by id */
  constructor(words: readonly string[]) {
    this.folded = words.map((word) => (word.length >= MIN_COMPOUND_LETTERS ? decompose(word) : ''));
    this.reversed = this.folded.map((word) => (word === '' ? '' : reverse(word)));
    const long = words.flatMap((_, id) => (this.folded[id] === '' ? [] : [id]));
    this.byStart = Int32Array.from(long).sort((a, b) => compare(this.folded[a], this.folded[b]));
    this.byEnd = Int32Array.from(long).sort((a, b) => compare(this.reversed[a], this.reversed[b]));
  }

  /** The ids of the long words that `part` (a sent word or its stem) begins or ends. */
  holding(part: string): number[] {
    const folded = decompose(part);
    if (folded.length < MIN_PART_LETTERS) return [];
    const found = [
      ...this.startingWith(this.byStart, this.folded, folded),
      ...this.startingWith(this.byEnd, this.reversed, reverse(folded)),
    ];
    return found.length > MAX_COMPOUNDS_PER_PART ? [] : [...new Set(found)];
  }

  /** Words in `sorted` (by `spellings`) that start with `prefix` and go on for long enough. */
  private startingWith(sorted: Int32Array, spellings: string[], prefix: string): number[] {
    let low = 0;
    let high = sorted.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compare(spellings[sorted[middle]], prefix) < 0) low = middle + 1;
      else high = middle;
    }
    const found: number[] = [];
    for (let at = low; at < sorted.length; at++) {
      const spelling = spellings[sorted[at]];
      if (!spelling.startsWith(prefix)) break;
      if (spelling.length - prefix.length >= MIN_REST_LETTERS) found.push(sorted[at]);
      if (found.length > MAX_COMPOUNDS_PER_PART) break;
    }
    return found;
  }
}

function reverse(word: string): string {
  return [...word].reverse().join('');
}

/** Code-unit order, the same whatever the server's locale. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
