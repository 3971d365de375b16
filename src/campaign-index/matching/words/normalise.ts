/**
 * Words of conversation text for the matcher, folded like keywords (normaliseKeyword in
 * src/common/keywords.ts) so that a word in a conversation meets the same keyword.
 */

const SEPARATOR = 0;
const WORD = 1;
/** `+` and `#` belong to a word only after its letters ("c++", "c#"), never in front ("#tips"). */
const WORD_SUFFIX = 2;

const ASCII_CLASSES = buildAsciiClasses();

function buildAsciiClasses(): Uint8Array {
  const classes = new Uint8Array(128);
  for (let code = 0; code < 128; code++) {
    const char = String.fromCharCode(code);
    if (/[a-z0-9]/i.test(char)) classes[code] = WORD;
  }
  classes['+'.charCodeAt(0)] = WORD_SUFFIX;
  classes['#'.charCodeAt(0)] = WORD_SUFFIX;
  return classes;
}

const NON_ASCII = /[\u0080-\uffff]/;
const UNICODE_WORD_CHAR = /^[\p{L}\p{N}\p{M}]$/u;

/** Receives one word of a text: `folded.slice(start, end)`, and a 32-bit hash of it. */
export type WordVisitor = (folded: string, start: number, end: number, hash: number) => void;

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/**
 * Visits the words of a text, normalised like keywords, with punctuation treated as a
 * word break. The visitor gets each word's place and its FNV-1a hash (`wordHash`) rather
 * than a string, so that a caller looking for known words only allocates the ones it
 * wants: a hand-written scanner, because a Unicode-aware regex costs ~50 ns per
 * character and slicing every word of a few-KB conversation costs more than the look-ups.
 */
export function scanWords(text: string, visit: WordVisitor): void {
  const folded = (NON_ASCII.test(text) ? text.normalize('NFKC') : text).toLowerCase();
  let wordStart = -1;
  let hash = FNV_OFFSET;
  let index = 0;
  while (index < folded.length) {
    const code = folded.charCodeAt(index);
    let charClass: number;
    let width = 1;
    if (code < 128) {
      charClass = ASCII_CLASSES[code];
    } else {
      const codePoint = folded.codePointAt(index) ?? code;
      width = codePoint > 0xffff ? 2 : 1;
      charClass = UNICODE_WORD_CHAR.test(String.fromCodePoint(codePoint)) ? WORD : SEPARATOR;
    }
    if (charClass === WORD || (charClass === WORD_SUFFIX && wordStart >= 0)) {
      if (wordStart < 0) {
        wordStart = index;
        hash = FNV_OFFSET;
      }
      hash = Math.imul(hash ^ code, FNV_PRIME);
      if (width === 2) hash = Math.imul(hash ^ folded.charCodeAt(index + 1), FNV_PRIME);
    } else if (wordStart >= 0) {
      visit(folded, wordStart, index, hash >>> 0);
      wordStart = -1;
    }
    index += width;
  }
  if (wordStart >= 0) visit(folded, wordStart, folded.length, hash >>> 0);
}

/** The hash `scanWords` gives a word; `word` must already be one word of `textWords`. */
export function wordHash(word: string): number {
  let hash = FNV_OFFSET;
  for (let index = 0; index < word.length; index++) {
    hash = Math.imul(hash ^ word.charCodeAt(index), FNV_PRIME);
  }
  return hash >>> 0;
}

/** The words of a text, normalised like keywords, with punctuation treated as a word break. */
export function textWords(text: string): string[] {
  const words: string[] = [];
  scanWords(text, (folded, start, end) => words.push(folded.slice(start, end)));
  return words;
}

/** How a keyword appears in tokenised text ("node.js" → "node js"); '' when it has no words. */
export function searchPhrase(keyword: string): string {
  return textWords(keyword).join(' ');
}
