import { decompose } from '@/common/text-folding';

/**
 * Words as the sensitive-topic lists see them: lower case, without accents (NFKD, combining
 * marks dropped), ß as ss, œ and æ as oe and ae, and every character that is not a letter
 * or a digit a word break ("Self-Harm", "self harm" and "SELF‑HARM" are the same two words;
 * "don't" is "don t"). The campaign index folds keywords its own way (NFKC, accents kept),
 * because there "café" and "cafe" may be different products; here a word must be caught
 * however it is typed.
 */

const WORD_CHAR = /^[\p{L}\p{N}]$/u;

/**
 * In `FOLDED_UNITS`: a character that folds to two letters (ß, œ, æ, "ﬁ"), found in
 * `FOLDED_PAIRS`: common in German and French, so read in place rather than decomposed.
 */
export const PAIR = 0xfffd;
/**
 * In `FOLDED_UNITS`: a character that folds to something else (none, as a combining mark
 * in "e\u0301" does, or more than two); text holding one is decomposed first.
 */
export const DECOMPOSE = 0xfffe;
/** In `FOLDED_UNITS`: not worked out yet (`foldUnit` does it once). */
export const UNKNOWN = 0xffff;

/**
 * For each UTF-16 unit: what it folds to when it belongs to a word (a letter or digit of
 * the Basic Multilingual Plane: "É" → "e"), 0 when it breaks words, `PAIR`, `DECOMPOSE`,
 * or `UNKNOWN` until first seen. Text is folded by a look-up per character as it is read: no
 * `toLowerCase` or `normalize` copy of ordinary text, accented or not, and no Unicode regex
 * (~50 ns a character). Working out all 65,536 units takes ~100 ms, so Latin script
 * (U+0000-U+024F) is worked out when the module loads and any other unit the first time
 * it is met. Surrogates are 0, so characters beyond the BMP (emoji, rare scripts) break
 * words; no list word uses them.
 */
export const FOLDED_UNITS = new Uint16Array(0x10000).fill(UNKNOWN);
/** The two folded letters of each `PAIR` character: the first in the high 16 bits. */
export const FOLDED_PAIRS = new Map<number, number>();
for (let code = 0; code < 0x250; code++) foldUnit(code);

/** `FOLDED_UNITS[code]`, worked out and stored if it was `UNKNOWN`. */
export function foldUnit(code: number): number {
  const known = FOLDED_UNITS[code];
  if (known !== UNKNOWN) return known;
  let unit = 0;
  if (code < 0xd800 || code > 0xdfff) {
    const folded = decompose(String.fromCharCode(code)).toLowerCase();
    const wordChars = [...folded].filter((char) => WORD_CHAR.test(char)).length;
    if (folded.length === 1 && wordChars === 1) {
      unit = folded.charCodeAt(0);
    } else if (folded.length === 2 && wordChars === 2) {
      unit = PAIR;
      FOLDED_PAIRS.set(code, (folded.charCodeAt(0) << 16) | folded.charCodeAt(1));
    } else if (folded.length === 0 || wordChars > 0) {
      unit = DECOMPOSE;
    }
  }
  FOLDED_UNITS[code] = unit;
  return unit;
}

export const FNV_OFFSET = 0x811c9dc5;
export const FNV_PRIME = 0x01000193;

/** The FNV-1a hash of a folded word, as a scan computes it from the folded units. */
export function wordHash(word: string): number {
  let hash = FNV_OFFSET;
  for (let index = 0; index < word.length; index++) {
    hash = Math.imul(hash ^ word.charCodeAt(index), FNV_PRIME);
  }
  return hash >>> 0;
}

/** The folded words of a text: how a list entry is stored ("Self-Harm" → ["self", "harm"]). */
export function foldedWords(text: string): string[] {
  const words: string[] = [];
  let word = '';
  const decomposed = decompose(text);
  for (let index = 0; index <= decomposed.length; index++) {
    const code = index < decomposed.length ? decomposed.charCodeAt(index) : -1;
    const folded = code < 0 ? 0 : foldUnit(code);
    if (folded === PAIR) {
      const pair = FOLDED_PAIRS.get(code) as number;
      word += String.fromCharCode(pair >>> 16, pair & 0xffff);
    } else if (folded !== 0 && folded !== DECOMPOSE) {
      word += String.fromCharCode(folded);
    } else if (word !== '') {
      words.push(word);
      word = '';
    }
  }
  return words;
}
