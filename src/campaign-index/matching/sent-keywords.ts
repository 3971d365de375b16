import { requestWords } from './request-words';
import { matchForm, type RequestWord, translationFactor, type WordIndex } from './word-index';

/**
 * A key whose posting list is longer than this finds no forms, whatever its count says:
 * scoring thousands of forms for one sent word would cost more than the whole match.
 */
const MAX_FORMS_PER_KEY = 4096;

/**
 * Receives a campaign keyword the request meets, the share of its weight it reaches, and
 * the position of the sent keyword that meets it.
 */
export type KeywordReach = (keyword: number, share: number, position: number) => void;

/**
 * Scratch space of one index for `resolveSentKeywords`, reused by every request (the
 * service matches one request at a time): which forms a sent keyword has already scored.
 */
export class FormStamps {
  private readonly stamps: Int32Array;
  private stamp = 0;

  constructor(formCount: number) {
    this.stamps = new Int32Array(formCount);
  }

  next(): number {
    if (this.stamp === 0x3fffffff) {
      this.stamps.fill(0);
      this.stamp = 0;
    }
    return ++this.stamp;
  }

  /** Marks `form` for `stamp`; false when it already was. */
  mark(form: number, stamp: number): boolean {
    if (this.stamps[form] === stamp) return false;
    this.stamps[form] = stamp;
    return true;
  }
}

/**
 * How much a sent keyword says about what the person wants: the weight of its rarest
 * content word (a word no campaign holds weighs most, a generic one least); 0 when it has
 * none (only stop words).
 */
export function sentKeywordWeight(words: readonly RequestWord[]): number {
  return words.reduce((most, word) => Math.max(most, word.weight), 0);
}

/**
 * The campaign keywords that sent keywords meet other than by being equal to them: by a
 * translation an operator entered (spelled as sent, or word by word), and word by word, in
 * the languages of `languageMask`, exactly or by stem (`matchForm`). Each sent keyword finds
 * its candidate forms through the posting lists of its anchor words only. Tells `weigh` the
 * weight of each sent keyword (`sentKeywordWeight`), and answers their sum.
 */
export function resolveSentKeywords(
  index: WordIndex,
  stamps: FormStamps,
  phrases: readonly string[],
  languageMask: number,
  conversationHas: (word: string) => boolean,
  reach: KeywordReach,
  weigh: (position: number, weight: number) => void,
): number {
  let total = 0;
  phrases.forEach((phrase, position) => {
    for (const keyword of index.translations.get(phrase) ?? []) {
      reach(keyword, translationFactor(), position);
    }
    const words = requestWords(index, phrase, languageMask);
    const weight = sentKeywordWeight(words);
    weigh(position, weight);
    total += weight;
    if (!words.some((word) => word.anchor)) return;
    const sentWeight = words.reduce((sum, word) => sum + word.weight, 0);
    const stamp = stamps.next();
    for (const word of words) {
      if (word.anchor) scoreFormsOf(stamp, word, words, sentWeight, position);
    }
  });
  return total;

  function scoreFormsOf(
    stamp: number,
    anchor: RequestWord,
    words: readonly RequestWord[],
    sentWeight: number,
    position: number,
  ): void {
    const { keyOccurrences, keyPostingStart, keyPostings, commonOccurrences } = index;
    for (const key of [...anchor.keys, ...anchor.partKeys]) {
      if (key < 0 || keyOccurrences[key] > commonOccurrences) continue;
      const start = keyPostingStart[key];
      const end = keyPostingStart[key + 1];
      if (end - start > MAX_FORMS_PER_KEY) continue;
      for (let at = start; at < end; at++) {
        const form = keyPostings[at];
        if (!stamps.mark(form, stamp)) continue;
        const met = matchForm(index, form, words, sentWeight, languageMask, conversationHas, false);
        if (met === null) continue;
        const factor = index.formIsTranslation[form] === 1 ? translationFactor() : 1;
        reach(index.formKeyword[form], met.similarity * factor, position);
      }
    }
  }
}
