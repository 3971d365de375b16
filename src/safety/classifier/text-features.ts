import { decompose } from '@/common/text-folding';
import { DECOMPOSE, FOLDED_PAIRS, FOLDED_UNITS, foldUnit, PAIR, UNKNOWN } from '../folded-words';

/**
 * The features the situation classifier reads in a text, as hashed buckets: each folded
 * word, each pair of words in a row, and the 3- and 4-letter pieces of each word with its
 * edges marked ("^sw", "allo", "ed$"). Word pieces carry meaning across inflections,
 * compounds and typos ("swallowed", "swalowed", "verschluckt" / "verschluckte") without a
 * stemmer per language. Text is folded as the phrase lists fold it (case, accents, ß…).
 *
 * Stop words are kept: dropping them (the `stopword` package's lists) cost a fifth of the
 * recall in cross-validation, as "I", "my" or "je" tell a person's own crisis from a story.
 *
 * Why hashed buckets rather than the feature strings NLP.js keys its lookup with: reading a
 * request then allocates nothing (no string per word or piece), and training and serving
 * compute the same numbers, so the model trained on bucket ids is served as it was trained.
 */

/**
 * Buckets are 18-bit numbers: the service's table from bucket to row is then 1 MiB, which
 * stays in cache better than 4 MiB at 20 bits (the look-ups are most of a request's cost);
 * the ~50k features of the corpus collide in a few percent of buckets, the same in training.
 */
export const FEATURE_BITS = 18;
const BUCKET_MASK = (1 << FEATURE_BITS) - 1;
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
/** Seeds that keep a word, a word pair and each piece length apart. */
const WORD_SEED = 0x9e3779b1;
const PAIR_SEED = 0x85ebca6b;
const PIECE_SEEDS = [0, 0, 0, 0xc2b2ae35, 0x27d4eb2f];
const PIECE_LENGTHS = [3, 4];
/** The edge mark around a word's letters when it is cut into pieces. */
const EDGE = 1;
/** A word's letters beyond this are hashed into the word but not cut into pieces. */
const MAX_PIECE_WORD = 24;

/**
 * Most features a text of `chars` characters can yield: a word of n letters yields at most
 * 2n + 2, and a character is at most two letters (ß).
 */
const maxFeatures = (chars: number): number => chars * 7 + 8;

/** Mixes a hash's bits before it is cut to a bucket (FNV's low bits alone are weak). */
function bucketOf(hash: number): number {
  let mixed = hash ^ (hash >>> 16);
  mixed = Math.imul(mixed, 0x45d9f3b);
  mixed ^= mixed >>> 16;
  return mixed & BUCKET_MASK;
}

/**
 * Reads text into bucket ids, repeats included, in a buffer it keeps and reuses (one reader
 * per thread of use: the buffer is overwritten by the next read).
 */
export class TextFeatures {
  /** The current word's folded letters, edge-marked: [EDGE, letters…, EDGE]. */
  private readonly letters = new Uint16Array(MAX_PIECE_WORD + 2);
  /** The last read's buckets, in `[0, count)`. */
  buckets = new Int32Array(maxFeatures(1024));

  /** Reads `text[start, end)` into `buckets` and answers how many it holds. */
  read(text: string, start: number, end: number): number {
    const count = this.scan(text, start, end, this.fit(end - start), false);
    if (count >= 0) return count;
    // A combining mark or a rarer compatibility form: read the part again, decomposed.
    const part = decompose(text.slice(start, end));
    return this.scan(part, 0, part.length, this.fit(part.length), true);
  }

  private fit(chars: number): Int32Array {
    if (this.buckets.length < maxFeatures(chars)) this.buckets = new Int32Array(maxFeatures(chars));
    return this.buckets;
  }

  /** -1 when the text holds a character to decompose first, unless `decomposed`. */
  private scan(
    text: string,
    start: number,
    end: number,
    out: Int32Array,
    decomposed: boolean,
  ): number {
    const units = FOLDED_UNITS;
    const letters = this.letters;
    let count = 0;
    let length = 0;
    let hash = FNV_OFFSET;
    let previous = 0;
    let hasPrevious = false;
    for (let index = start; index <= end; index++) {
      let folded = index < end ? units[text.charCodeAt(index)] : 0;
      let first = 0;
      if (folded >= PAIR) {
        if (folded === UNKNOWN) folded = foldUnit(text.charCodeAt(index));
        if (folded === PAIR) {
          const pair = FOLDED_PAIRS.get(text.charCodeAt(index)) as number;
          first = pair >>> 16;
          folded = pair & 0xffff;
        } else if (folded === DECOMPOSE) {
          if (!decomposed) return -1;
          folded = 0;
        }
      }
      if (folded !== 0) {
        if (first !== 0) {
          hash = Math.imul(hash ^ first, FNV_PRIME);
          if (length < MAX_PIECE_WORD) letters[++length] = first;
        }
        hash = Math.imul(hash ^ folded, FNV_PRIME);
        if (length < MAX_PIECE_WORD) letters[++length] = folded;
      } else if (length > 0) {
        out[count++] = bucketOf(hash ^ WORD_SEED);
        if (hasPrevious) out[count++] = bucketOf(Math.imul(previous, PAIR_SEED) ^ hash);
        count = this.pieces(length, out, count);
        previous = hash;
        hasPrevious = true;
        hash = FNV_OFFSET;
        length = 0;
      }
    }
    return count;
  }

  /** Adds the 3- and 4-letter pieces of the edge-marked word `letters[0, length + 2)`. */
  private pieces(length: number, out: Int32Array, count: number): number {
    const letters = this.letters;
    letters[0] = EDGE;
    letters[length + 1] = EDGE;
    const marked = length + 2;
    for (const size of PIECE_LENGTHS) {
      for (let at = 0; at + size <= marked; at++) {
        let hash = FNV_OFFSET ^ PIECE_SEEDS[size];
        for (let i = at; i < at + size; i++) hash = Math.imul(hash ^ letters[i], FNV_PRIME);
        out[count++] = bucketOf(hash);
      }
    }
    return count;
  }
}
