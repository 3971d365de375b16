import { searchPhrase, wordHash } from '../words/normalise';
import { STEPS_PER_YIELD } from '../build-slices';
import type { KeywordPostings, RequestKeywords } from './index-layout';

/**
 * Conversation keywords (docs/relevance.md#glossary): the phrase tables built from the
 * vocabulary (`indexPhrases`) and the scan that reads them for each request.
 */

/**
 * A campaign keyword that the publisher did not send but that the conversation contains
 * counts with this share of its weight: the publisher's own extraction left it out, so it
 * is weaker evidence of intent, yet it should still lift the campaign that fits the whole
 * conversation above one that fits only the sent keywords.
 */
export const CONVERSATION_KEYWORD_FACTOR = 0.5;

/**
 * At most this many conversation keywords count, the rarest (heaviest) first. Each one adds
 * a posting list whose campaigns must be scored with it, and common keywords have long
 * lists. The rarest keywords are also the ones that say the most about the conversation,
 * so the ranking changes only in the rare case where a campaign would have won on several
 * common conversation keywords at once.
 */
export const MAX_CONVERSATION_KEYWORDS = 3;

/**
 * Indexed keywords found as whole words in the conversation and not sent; the
 * `MAX_CONVERSATION_KEYWORDS` heaviest are marked at `CONVERSATION_KEYWORD_FACTOR`, the
 * others at no weight. One pass over its words: a look-up per word that may belong to a
 * keyword, a few more only inside a multi-word phrase.
 */
export function markConversationKeywords(
  keywords: KeywordPostings,
  request: RequestKeywords,
  /** The conversation's words (`ConversationReading.words`): null for a run of others. */
  words: readonly (string | null)[],
  stamp: number,
): number[] {
  const found: number[] = [];
  const { ids, otherPhrases, phrasePrefixes, weights, names } = keywords;
  const { stamps, reach, sent } = request;
  const note = (id: number | undefined): void => {
    if (id === undefined) return;
    if (stamps[id] === stamp) {
      // Met word by word by a sent keyword and whole in the conversation: the better counts.
      if (sent[id] !== 0)
        reach[id] = Math.max(reach[id], CONVERSATION_KEYWORD_FACTOR * weights[id]);
      return;
    }
    stamps[id] = stamp;
    reach[id] = 0;
    sent[id] = 0;
    found.push(id);
  };
  const notePhrase = (phrase: string): void => {
    note(ids.get(phrase));
    if (otherPhrases.size > 0) otherPhrases.get(phrase)?.forEach(note);
  };
  for (let first = 0; first < words.length; first++) {
    let phrase = words[first];
    if (phrase === null) continue;
    notePhrase(phrase);
    for (let next = first + 1; next < words.length && phrasePrefixes.has(phrase); next++) {
      const word = words[next];
      if (word === null) break;
      phrase = `${phrase} ${word}`;
      notePhrase(phrase);
    }
  }
  const counted =
    found.length <= MAX_CONVERSATION_KEYWORDS
      ? found
      : found
          .sort((a, b) => weights[b] - weights[a] || (names[a] < names[b] ? -1 : 1))
          .slice(0, MAX_CONVERSATION_KEYWORDS);
  for (const id of counted) reach[id] = CONVERSATION_KEYWORD_FACTOR * weights[id];
  return counted;
}

/** The phrase tables of `KeywordPostings`, for the conversation scans. */
export function* indexPhrases(
  vocabulary: ReadonlyMap<string, number>,
  /** Words of other phrases (translations) that the scan must let through too. */
  moreWords: readonly string[],
): Generator<void, Pick<KeywordPostings, 'otherPhrases' | 'phrasePrefixes' | 'phraseWordFilter'>> {
  const otherPhrases = new Map<string, number[]>();
  const phrasePrefixes = new Set<string>();
  const phraseWords = new Set<string>();
  let steps = 0;
  for (const [keyword, id] of vocabulary) {
    if (++steps % (STEPS_PER_YIELD / 4) === 0) yield;
    const phrase = searchPhrase(keyword);
    if (phrase === '') continue;
    if (phrase !== keyword) {
      const ids = otherPhrases.get(phrase);
      if (ids === undefined) otherPhrases.set(phrase, [id]);
      else ids.push(id);
    }
    for (let space = phrase.indexOf(' '); space >= 0; space = phrase.indexOf(' ', space + 1)) {
      phrasePrefixes.add(phrase.slice(0, space));
    }
    for (const word of phrase.split(' ')) phraseWords.add(word);
  }
  for (const word of moreWords) phraseWords.add(word);
  return { otherPhrases, phrasePrefixes, phraseWordFilter: buildWordFilter(phraseWords) };
}

/** About 16 bits per word: roughly one word in 16 that holds no keyword gets through. */
function buildWordFilter(words: ReadonlySet<string>): Int32Array {
  let buckets = 32;
  while (buckets < Math.min(words.size * 16, 2 ** 28)) buckets *= 2;
  const filter = new Int32Array(buckets / 32);
  for (const word of words) {
    const hash = wordHash(word);
    filter[(hash >>> 5) & (filter.length - 1)] |= 1 << (hash & 31);
  }
  return filter;
}
