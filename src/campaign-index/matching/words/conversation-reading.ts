import { isIntentWord } from './commercial-intent';
import { countStopWord, languageOfStopWords, type MatchLanguage } from './language';
import { scanWords } from './normalise';

/**
 * Only the last this many characters of the conversation are read for keywords: the
 * recent turns say the most about what the person wants now, and the scan of a body near
 * the 64 KiB limit would otherwise cost more than the whole match.
 */
export const CONVERSATION_SCAN_CHARS = 4000;
/** Its language is told from the stop words of the last this many characters. */
const LANGUAGE_CHARS = 800;
/** Its intent from the last this many: the person's latest turn says what they want now. */
const INTENT_CHARS = 600;

/** What the matcher reads of a conversation, in one pass over its recent part. */
export interface ConversationReading {
  /**
   * Its words that `wordFilter` lets through (those some keyword or translation may hold),
   * in order, folded like keywords; null stands for a run of other words, which no phrase
   * runs across.
   */
  words: (string | null)[];
  /** Its language as its stop words show it (`languageOfStopWords`), or null. */
  language: MatchLanguage | null;
  /** Whether its end shows a wish to get something (`isIntentWord`); null: no conversation. */
  intent: boolean | null;
}

/**
 * Reads a conversation once for everything the matcher needs of it: three scans (keywords,
 * language, intent) would cost three times as much, on every request.
 */
export function readConversation(
  conversation: string,
  wordFilter: Int32Array,
): ConversationReading {
  if (conversation.trim() === '') return { words: [], language: null, intent: null };
  const recent =
    conversation.length > CONVERSATION_SCAN_CHARS
      ? conversation.slice(conversation.length - CONVERSATION_SCAN_CHARS)
      : conversation;
  const languageFrom = recent.length - LANGUAGE_CHARS;
  const intentFrom = recent.length - INTENT_CHARS;
  const stopWords = [0, 0, 0, 0];
  let intent = false;
  const words: (string | null)[] = [];
  scanWords(recent, (folded, start, end, hash) => {
    if (start >= languageFrom) countStopWord(hash, stopWords);
    if (!intent && start >= intentFrom && isIntentWord(hash)) intent = true;
    if (filterHas(wordFilter, hash)) words.push(folded.slice(start, end));
    else if (words.length > 0 && words[words.length - 1] !== null) words.push(null);
  });
  return { words, language: languageOfStopWords(stopWords), intent };
}

/** Whether a `buildWordFilter` filter may hold the word of `hash`. */
function filterHas(filter: Int32Array, hash: number): boolean {
  return (filter[(hash >>> 5) & (filter.length - 1)] & (1 << (hash & 31))) !== 0;
}

/** A filter that lets no word through: for reading only a conversation's language and intent. */
export const NO_WORDS = new Int32Array(1);
