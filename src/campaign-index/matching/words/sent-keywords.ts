import { isStopIn } from './language';
import { requestWords } from './request-words';
import {
  KEYS_PER_WORD,
  matchForm,
  type RequestWord,
  translationFactor,
  type WordIndex,
} from './word-index';

/**
 * The campaign keywords that sent keywords meet other than as written: through translations
 * and word by word. Sent phrase, anchor, share: docs/relevance.md#glossary.
 */

/**
 * A key whose posting list is longer than this finds no forms, whatever its count says:
 * scoring thousands of forms for one sent word would cost more than the whole match.
 */
const MAX_FORMS_PER_KEY = 4096;

/**
 * Receives a campaign keyword the request meets, the share of its weight it reaches, and
 * the position of the sent keyword that meets it.
 */
type KeywordReach = (keyword: number, share: number, position: number) => void;

/** What a sent keyword is to one index, in one set of languages: worked out once. */
interface SentPhrase {
  words: readonly RequestWord[];
  /** `sentKeywordWeight`, and the sum of its words' weights (`matchForm`'s `sentWeight`). */
  weight: number;
  wordsWeight: number;
  /** Forms holding one of its anchor words that can match in some conversation. */
  forms: Int32Array;
  /** Per form: the share of its keyword it reaches without the conversation (0: none). */
  shares: Float64Array;
  /**
   * Per form: its words that no sent word met (stop words aside), which the conversation
   * may supply; empty when none can (then `shares` is the whole answer).
   */
  missing: (readonly string[])[];
  /** Keyword ids it translates, spelled as sent. */
  translated: readonly number[];
}

/**
 * Sent keywords as `resolveSentKeywords` reads them, kept per index: publishers send the
 * same keywords again and again, and stemming a keyword's words in four languages and
 * walking its anchors' posting lists costs more than the rest of its match. Bounded: past
 * `MAX_CACHED_PHRASES` it starts over, so a caller inventing keywords cannot grow it.
 */
export class SentPhrases {
  private readonly phrases = new Map<string, SentPhrase>();
  private readonly stamps: Int32Array;
  private stamp = 0;

  constructor(private readonly index: WordIndex) {
    this.stamps = new Int32Array(index.formKeyword.length);
  }

  read(phrase: string, languageMask: number): SentPhrase {
    const key = `${languageMask}\u0000${phrase}`;
    let read = this.phrases.get(key);
    if (read === undefined) {
      if (this.phrases.size >= MAX_CACHED_PHRASES) this.phrases.clear();
      read = this.work(phrase, languageMask);
      this.phrases.set(key, read);
    }
    return read;
  }

  private work(phrase: string, languageMask: number): SentPhrase {
    const { index } = this;
    const words = requestWords(index, phrase, languageMask);
    const wordsWeight = words.reduce((sum, word) => sum + word.weight, 0);
    const forms: number[] = [];
    const shares: number[] = [];
    const missing: (readonly string[])[] = [];
    const stamp = this.nextStamp();
    const { keyOccurrences, keyPostingStart, keyPostings, commonOccurrences } = index;
    for (const word of words) {
      if (!word.anchor) continue;
      const partKeys = word.partWords.map((part) => index.wordKeys[part * KEYS_PER_WORD]);
      for (const key of [...word.keys, ...partKeys]) {
        if (key < 0 || keyOccurrences[key] > commonOccurrences) continue;
        const start = keyPostingStart[key];
        const end = keyPostingStart[key + 1];
        if (end - start > MAX_FORMS_PER_KEY) continue;
        for (let at = start; at < end; at++) {
          const form = keyPostings[at];
          if (this.stamps[form] === stamp) continue;
          this.stamps[form] = stamp;
          // Kept only if it can match in some conversation: one that holds every word of it
          // not sent (matchForm's best case) still leaves it short, or a stem too far apart.
          if (matchForm(index, form, words, wordsWeight, languageMask, ANY_WORD, false) !== null) {
            const alone = matchForm(index, form, words, wordsWeight, languageMask, null, true);
            forms.push(form);
            shares.push(alone === null ? 0 : alone.similarity * formFactor(index, form));
            missing.push(
              missingWords(index, form, languageMask, alone?.wordMatches ?? null, words),
            );
          }
        }
      }
    }
    return {
      words,
      weight: sentKeywordWeight(words),
      wordsWeight,
      forms: Int32Array.from(forms),
      shares: Float64Array.from(shares),
      missing,
      translated: index.translations.get(phrase) ?? [],
    };
  }

  private nextStamp(): number {
    if (this.stamp === 0x3fffffff) {
      this.stamps.fill(0);
      this.stamp = 0;
    }
    return ++this.stamp;
  }
}

/** What a form's similarity is worth to its keyword: less through a translation. */
function formFactor(index: WordIndex, form: number): number {
  return index.formIsTranslation[form] === 1 ? translationFactor() : 1;
}

/**
 * The words of `form` that the sent words did not meet (by `wordMatches`, or all when there
 * are none), stop words aside.
 */
function missingWords(
  index: WordIndex,
  form: number,
  languageMask: number,
  wordMatches: readonly (string | null)[] | null,
  sentWords: readonly RequestWord[],
): string[] {
  const missing: string[] = [];
  const { formWordStart, formWords, words, wordStopLanguages } = index;
  for (let at = formWordStart[form]; at < formWordStart[form + 1]; at++) {
    const word = formWords[at];
    if (isStopIn(wordStopLanguages[word], languageMask)) continue;
    const met = wordMatches?.[at - formWordStart[form]] ?? null;
    if (met === null && !sentWords.some((sent) => sent.word === words[word])) {
      missing.push(words[word]);
    }
  }
  return missing;
}

/** A conversation that holds every word: the most a form can meet. */
const ANY_WORD = (): boolean => true;

/** Distinct sent keywords (per language set) `SentPhrases` keeps at most. */
const MAX_CACHED_PHRASES = 20_000;

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
 * the languages of `languageMask`, exactly or by stem (`matchForm`). Each sent keyword's
 * candidate forms are those of its anchor words (`SentPhrases`). Tells `weigh` the weight
 * of each sent keyword (`sentKeywordWeight`).
 */
export function resolveSentKeywords(
  index: WordIndex,
  sentPhrases: SentPhrases,
  phrases: readonly string[],
  languageMask: number,
  conversationHas: (word: string) => boolean,
  reach: KeywordReach,
  weigh: (position: number, weight: number) => void,
): void {
  phrases.forEach((phrase, position) => {
    const sent = sentPhrases.read(phrase, languageMask);
    for (const keyword of sent.translated) reach(keyword, translationFactor(), position);
    weigh(position, sent.weight);
    sent.forms.forEach((form, at) => {
      let share = sent.shares[at];
      // Scored again only when the conversation holds a word the sent ones did not meet.
      if (sent.missing[at].some(conversationHas)) {
        const met = matchForm(
          index,
          form,
          sent.words,
          sent.wordsWeight,
          languageMask,
          conversationHas,
          false,
        );
        share = met === null ? 0 : met.similarity * formFactor(index, form);
      }
      if (share > 0) reach(index.formKeyword[form], share, position);
    });
  });
}
