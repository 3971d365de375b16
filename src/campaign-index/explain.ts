import { CONVERSATION_SCAN_CHARS } from './matching/conversation-keywords';
import type { IndexedCampaign, MatchRequest } from './matching/matching.types';
import { scanWords, searchPhrase, wordHash } from './matching/normalise';

/** Where a matched keyword came from: the request's `context_keywords`, or its conversation. */
export const KEYWORD_SOURCES = ['context_keywords', 'conversation'] as const;
export type KeywordSource = (typeof KEYWORD_SOURCES)[number];

export interface MatchedKeyword {
  keyword: string;
  source: KeywordSource;
}

/** Up to this many sent keywords are searched by scanning the array; more go into a Set. */
const SENT_SCAN_LIMIT = 16;

/**
 * Which of a campaign's keywords the request met, and where: those sent in
 * `context_keywords` first, then those found only in the conversation, each group in the
 * campaign's order. The matcher's own rules: a sent keyword meets its normalised self; a
 * conversation keyword is a whole-word phrase in the conversation's last
 * `CONVERSATION_SCAN_CHARS` characters ("node.js" is found in "I use Node.js").
 *
 * For the winning campaign only, after the match: the matcher keeps no per-campaign record
 * of which keywords it met, and building one for every candidate would slow every match.
 * A conversation keyword is listed even when it was not one of the request's three rarest
 * that add relevance (`MAX_CONVERSATION_KEYWORDS`): it is in the conversation either way.
 */
export function explainMatch(
  campaign: Pick<IndexedCampaign, 'keywords'>,
  request: Pick<MatchRequest, 'keywords' | 'conversation'>,
): MatchedKeyword[] {
  const isSent = sentTest(request.keywords);
  const matched: MatchedKeyword[] = [];
  const unsent: string[] = [];
  for (const keyword of campaign.keywords) {
    if (isSent(keyword)) matched.push({ keyword, source: 'context_keywords' });
    else unsent.push(keyword);
  }
  if (unsent.length === 0 || request.conversation === '') return matched;
  const recent = recentPart(request.conversation);
  const mayHold = phraseFilter(recent);
  const phrases = unsent.map((keyword) => {
    const phrase = searchPhrase(keyword);
    return mayHold(phrase) ? phrase : '';
  });
  if (phrases.every((phrase) => phrase === '')) return matched;
  const text = phraseText(recent, phrases);
  unsent.forEach((keyword, at) => {
    const phrase = phrases[at];
    if (phrase !== '' && text.includes(` ${phrase} `)) {
      matched.push({ keyword, source: 'conversation' });
    }
  });
  return matched;
}

function sentTest(keywords: readonly string[]): (keyword: string) => boolean {
  if (keywords.length <= SENT_SCAN_LIMIT) return (keyword) => keywords.includes(keyword);
  const sent = new Set(keywords);
  return (keyword) => sent.has(keyword);
}

/** The part of the conversation the matcher scans. */
function recentPart(conversation: string): string {
  return conversation.length > CONVERSATION_SCAN_CHARS
    ? conversation.slice(conversation.length - CONVERSATION_SCAN_CHARS)
    : conversation;
}

const NON_ASCII = /[\u0080-\uffff]/;

/**
 * A quick test, false when the text cannot hold a phrase: in ASCII text (most
 * conversations) every word is a piece of the lower-cased text, so a phrase with a word
 * that is not cannot be there. Most winners match on sent keywords alone, and this spares
 * them the scan.
 */
function phraseFilter(text: string): (phrase: string) => boolean {
  if (NON_ASCII.test(text)) return (phrase) => phrase !== '';
  const lower = text.toLowerCase();
  return (phrase) => phrase !== '' && phrase.split(' ').every((word) => lower.includes(word));
}

/**
 * The text's words that belong to one of `phrases`, each run of them between single
 * spaces and runs apart by two, so that `" a b "` is found only where "a b" stands in the
 * text. Only those words are sliced out, as the matcher's own scan does.
 */
function phraseText(text: string, phrases: readonly string[]): string {
  const wanted = new Set<number>();
  for (const phrase of phrases) {
    if (phrase !== '') for (const word of phrase.split(' ')) wanted.add(wordHash(word));
  }
  // '' marks words no phrase holds: joined, it leaves two spaces that no phrase spans.
  const words: string[] = [''];
  scanWords(text, (folded, start, end, hash) => {
    if (wanted.has(hash)) words.push(folded.slice(start, end));
    else if (words[words.length - 1] !== '') words.push('');
  });
  words.push('');
  return words.join(' ');
}
