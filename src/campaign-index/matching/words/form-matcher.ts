import {
  type FormMatch,
  matchForm,
  type RequestWord,
  translationFactor,
  type WordIndex,
} from './word-index';

/** How a campaign keyword met a request word by word (`CampaignIndex.formMatcher`). */
export interface KeywordFormMatch extends FormMatch {
  /** The sent keyword that met it. */
  sent: string;
  /** The share of the keyword's weight it reaches: similarity, less for a translation. */
  share: number;
  /** The form that met it: the keyword itself, or a translation of it as written. */
  form: string;
  isTranslation: boolean;
  /** The form's words, in order, for `FormMatch.wordMatches`. */
  formWords: string[];
}

/**
 * Scores the forms of a keyword against a request's sent keywords, read once, as the match
 * scores them (the forms it can reach, `SentPhrases`), with the words of the best match
 * kept for "why this ad".
 */
export class FormMatcher {
  private readonly sent: {
    phrase: string;
    words: readonly RequestWord[];
    weight: number;
    /** The forms the match could reach from this keyword (`SentPhrase.forms`). */
    reachable: ReadonlySet<number>;
  }[];

  constructor(
    private readonly index: WordIndex,
    phrases: readonly string[],
    /** Reads a sent keyword (`SentPhrases.read`: the same reading the match used). */
    read: (phrase: string) => {
      words: readonly RequestWord[];
      wordsWeight: number;
      forms: Int32Array;
    },
    private readonly languageMask: number,
    private readonly conversationHas: (word: string) => boolean,
  ) {
    this.sent = phrases.map((phrase) => {
      const { words, wordsWeight, forms } = read(phrase);
      return { phrase, words, weight: wordsWeight, reachable: new Set(forms) };
    });
  }

  /** The best match of keyword `id` (`keyword`), or null when none counts. */
  best(id: number, keyword: string): KeywordFormMatch | null {
    const { index } = this;
    let best: KeywordFormMatch | null = null;
    for (const { phrase, words, weight, reachable } of this.sent) {
      if (words.length === 0) continue;
      for (let at = index.keywordFormStart[id]; at < index.keywordFormStart[id + 1]; at++) {
        const form = index.keywordForms[at];
        // Only what the match itself can reach: not through a key too common to walk.
        if (!reachable.has(form)) continue;
        const met = matchForm(
          index,
          form,
          words,
          weight,
          this.languageMask,
          this.conversationHas,
          true,
        );
        if (met === null) continue;
        const isTranslation = index.formIsTranslation[form] === 1;
        const share = met.similarity * (isTranslation ? translationFactor() : 1);
        if (best !== null && share <= best.share) continue;
        const formWords: string[] = [];
        for (let w = index.formWordStart[form]; w < index.formWordStart[form + 1]; w++) {
          formWords.push(index.words[index.formWords[w]]);
        }
        const written = isTranslation ? index.translationForms.get(form) : keyword;
        best = { ...met, sent: phrase, share, form: written ?? keyword, isTranslation, formWords };
      }
    }
    return best;
  }
}
