import { CONVERSATION_KEYWORD_FACTOR } from './matching/index/conversation-keywords';
import { CONVERSATION_SCAN_CHARS } from './matching/words/conversation-reading';
import type { CampaignIndex } from './matching/campaign-index';
import type { KeywordFormMatch } from './matching/words/form-matcher';
import type { WordMatchKind } from './matching/words/word-index';
import type { IndexedCampaign, MatchRequest } from './matching/matching.types';
import { scanWords, searchPhrase, textWords, wordHash } from './matching/words/normalise';

/** Where a matched keyword came from: the request's `context_keywords`, or its conversation. */
export const KEYWORD_SOURCES = ['context_keywords', 'conversation'] as const;
export type KeywordSource = (typeof KEYWORD_SOURCES)[number];

/**
 * How a campaign keyword was met: `exact` (sent or found as written), `stem` (every word,
 * some only by stem: "hotel" for "hotels"), `partial` (its rarer words, not all: "hosting"
 * for "web hosting"), `translation` (through a translation its operator entered).
 */
export const KEYWORD_MATCHES = ['exact', 'stem', 'partial', 'translation'] as const;
export type KeywordMatch = (typeof KEYWORD_MATCHES)[number];

/** How one word of the keyword (or of its translation) was met. */
// The matcher's own kinds (`WordMatchKind`), listed for the API: `satisfies` keeps the two one.
export const WORD_MATCHES = [
  'exact',
  'stem',
  'part',
  'conversation',
] as const satisfies readonly WordMatchKind[];
export type WordMatch = (typeof WORD_MATCHES)[number];

export interface MatchedWord {
  word: string;
  match: WordMatch;
}

export interface MatchedKeyword {
  keyword: string;
  source: KeywordSource;
  match: KeywordMatch;
  /** The words that met the request: the keyword's own, or its translation's. */
  words: MatchedWord[];
  /** The translation that met the request, when `match` is `translation`; else null. */
  translation: string | null;
}

/** Up to this many sent keywords are searched by scanning the array; more go into a Set. */
const SENT_SCAN_LIMIT = 16;

/**
 * Which of a campaign's keywords the request met, how, and where: those met by
 * `context_keywords` first (as written, through a translation, or word by word as the
 * matcher scores it: `CampaignIndex.bestFormMatch`), then those found only in the
 * conversation, each group in the campaign's order. A conversation keyword is a whole-word
 * phrase in the conversation's last `CONVERSATION_SCAN_CHARS` characters ("node.js" is
 * found in "I use Node.js").
 *
 * For the served campaigns only, after the match: the matcher keeps no per-campaign record
 * of which keywords it met, and building one for every candidate would slow every match.
 * A conversation keyword is listed even when it was not one of the request's three rarest
 * that add relevance (`MAX_CONVERSATION_KEYWORDS`): it is in the conversation either way.
 */
export function explainMatch(
  index: CampaignIndex,
  campaign: Pick<IndexedCampaign, 'keywords'>,
  request: Pick<MatchRequest, 'keywords' | 'conversation' | 'locale'>,
): MatchedKeyword[] {
  const isSent = sentTest(request.keywords);
  const translated = new Map<string, string>();
  for (const sent of request.keywords) {
    for (const keyword of index.translatedKeywords(sent)) translated.set(keyword, sent);
  }
  // Made at the first keyword not sent as written: most ads need none.
  let formMatch: ((keyword: string) => KeywordFormMatch | null) | undefined;
  const bySent = new Map<string, MatchedKeyword>();
  /** Met word by word for less than a conversation keyword counts: only if not in the conversation. */
  const weakly = new Map<string, MatchedKeyword>();
  const unsent: string[] = [];
  for (const keyword of campaign.keywords) {
    const translation = translated.get(keyword);
    if (isSent(keyword)) {
      bySent.set(keyword, asWritten(keyword, 'context_keywords'));
      continue;
    }
    if (translation !== undefined) {
      const words = wordsAsWritten(translation);
      const viaTranslation = { ...asWritten(keyword, 'context_keywords'), words, translation };
      bySent.set(keyword, { ...viaTranslation, match: 'translation' });
      continue;
    }
    formMatch ??= index.formMatcher(request);
    const best = formMatch(keyword);
    if (best !== null && best.share >= CONVERSATION_KEYWORD_FACTOR) {
      bySent.set(keyword, wordByWord(keyword, best));
      continue;
    }
    if (best !== null) weakly.set(keyword, wordByWord(keyword, best));
    unsent.push(keyword);
  }
  const inConversation = conversationKeywords(unsent, request.conversation);
  for (const [keyword, match] of weakly) {
    if (!inConversation.has(keyword)) bySent.set(keyword, match);
  }
  const inOrder = (found: ReadonlyMap<string, MatchedKeyword>) =>
    campaign.keywords.flatMap((keyword) => found.get(keyword) ?? []);
  const fromConversation = new Map(
    [...inConversation].map((keyword) => [keyword, asWritten(keyword, 'conversation')]),
  );
  return [...inOrder(bySent), ...inOrder(fromConversation)];
}

/** Which of `keywords` stand as whole-word phrases in the conversation's recent part. */
function conversationKeywords(keywords: readonly string[], conversation: string): Set<string> {
  const found = new Set<string>();
  if (keywords.length === 0 || conversation === '') return found;
  const recent = recentPart(conversation);
  const mayHold = phraseFilter(recent);
  const phrases = keywords.map((keyword) => {
    const phrase = searchPhrase(keyword);
    return mayHold(phrase) ? phrase : '';
  });
  if (phrases.every((phrase) => phrase === '')) return found;
  const text = phraseText(recent, phrases);
  keywords.forEach((keyword, at) => {
    const phrase = phrases[at];
    if (phrase !== '' && text.includes(` ${phrase} `)) found.add(keyword);
  });
  return found;
}

/** The words of a phrase as written, each met exactly. */
export function wordsAsWritten(phrase: string): MatchedWord[] {
  return textWords(phrase).map((word) => ({ word, match: 'exact' as const }));
}

function asWritten(keyword: string, source: KeywordSource): MatchedKeyword {
  return { keyword, source, match: 'exact', words: wordsAsWritten(keyword), translation: null };
}

function wordByWord(keyword: string, best: KeywordFormMatch): MatchedKeyword {
  const words: MatchedWord[] = [];
  let everyWord = true;
  best.formWords.forEach((word, at) => {
    const kind = best.wordMatches?.[at] ?? null;
    if (kind === null) everyWord = false;
    else words.push({ word, match: kind });
  });
  const match: KeywordMatch = best.isTranslation
    ? 'translation'
    : !everyWord || words.some((word) => word.match === 'conversation' || word.match === 'part')
      ? 'partial'
      : words.every((word) => word.match === 'exact')
        ? 'exact'
        : 'stem';
  return {
    keyword,
    source: 'context_keywords',
    match,
    words,
    translation: best.isTranslation ? best.form : null,
  };
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
