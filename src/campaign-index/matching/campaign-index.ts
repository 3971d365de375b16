import type {
  IndexedCampaign,
  MatchControls,
  MatchRequest,
  MatchResult,
  Selection,
} from '@/campaign-index/matching/matching.types';
import { markConversationKeywords } from './index/conversation-keywords';
import { readConversation } from './words/conversation-reading';
import { DEFAULT_CLICK_ID_PARAM } from '@/campaigns/entities/campaign.entity';
import {
  BID,
  EXCLUDED_BID,
  FACTS_PER_CAMPAIGN,
  type KeywordPostings,
  META,
  NO_CATEGORY,
  NO_CLICK_ID_PARAM,
  type RankedCampaigns,
  type RequestKeywords,
  SENT_BITS,
  sentBit,
  TARGETING_UNIT,
} from './index/index-layout';
import { compileFilter, type MatchFilter } from './search/match-filter';
import { ALL_LANGUAGES, languageBit, languageOfTag } from './words/language';
import { walkKeywordLists } from './search/max-score-walk';
import { RELEVANCE_TUNING } from './relevance-tuning';
import { FormMatcher, type KeywordFormMatch } from './words/form-matcher';
import { Search } from './search/scoring';
import { resolveSentKeywords, SentPhrases } from './words/sent-keywords';

/** What every search of one request shares (`CampaignIndex.readingOf`). */
interface RequestReading {
  /** The conversation's words that keywords may hold (`ConversationReading.words`). */
  conversationWords: readonly (string | null)[];
  /** The languages its words are read in (`languageBit`s). */
  languageMask: number;
  /** Whether a word stands in its conversation's recent part (read at the first question). */
  conversationHas: (word: string) => boolean;
  /** Multiplies every relevance: its intent (`intentFactor`). */
  relevanceFactor: number;
}

/**
 * An in-memory index of the servable campaigns, built once from a snapshot
 * (`CampaignIndexBuilder`), immutable but for `exclude`: campaigns by rank, keywords' posting
 * lists and each campaign's forward index (docs/relevance.md#glossary), in typed arrays and
 * UTF-8 buffers (`RankedCampaigns`, `KeywordPostings`). Memory: 8 bytes per (campaign,
 * keyword) pair, about 110 bytes per campaign, plus the render strings; none of it a JS
 * object per campaign, so a major GC does not grow with the campaigns.
 */
export class CampaignIndex {
  private excludedCount = 0;
  private readonly request: RequestKeywords;
  private readonly sentPhrases: SentPhrases;

  /** @internal Made by `CampaignIndexBuilder`. */
  constructor(
    private readonly ranked: RankedCampaigns,
    private readonly keywords: KeywordPostings,
  ) {
    const vocabularySize = keywords.names.length;
    this.request = {
      stamps: new Int32Array(vocabularySize),
      reach: new Float64Array(vocabularySize),
      sent: new Int32Array(vocabularySize),
      sentWeights: new Float64Array(SENT_BITS + 1),
      sentTotal: 0,
      stamp: 0,
    };
    this.sentPhrases = new SentPhrases(keywords.words);
  }

  /** Campaigns served: those indexed, less those excluded since. */
  get size(): number {
    return this.ranked.count - this.excludedCount;
  }

  /** The campaign as served, or undefined when it is not (never indexed, or excluded). */
  get(id: string): IndexedCampaign | undefined {
    const rank = this.ranked.byId.find(id);
    if (rank === undefined || this.isExcluded(rank)) return undefined;
    return this.campaignAt(rank);
  }

  /**
   * Stops serving a campaign at once (say, its budget ran out): `match` passes over it and
   * `get` no longer finds it. Keyword weights stay as built until the next build.
   * @returns false when the index does not serve it.
   */
  exclude(id: string): boolean {
    const rank = this.ranked.byId.find(id);
    if (rank === undefined || this.isExcluded(rank)) return false;
    this.ranked.facts[rank * FACTS_PER_CAMPAIGN + BID] = EXCLUDED_BID;
    this.excludedCount++;
    return true;
  }

  private isExcluded(rank: number): boolean {
    return this.ranked.facts[rank * FACTS_PER_CAMPAIGN + BID] === EXCLUDED_BID;
  }

  /**
   * The best campaign for the request, or null when none shares a keyword with it and
   * passes targeting. Relevance is the weighted share of the campaign's keywords met
   * (conversation keywords at `CONVERSATION_KEYWORD_FACTOR`); score = relevance × bid;
   * ties go to the higher bid, then the older campaign, then the smaller id.
   *
   * Every candidate holds a sent keyword. One walk over the lists of the sent and the
   * counted conversation keywords skips the campaigns that cannot reach the best score so
   * far (MaxScore, `walkKeywordLists`) and scores the others exactly, so the winner is the
   * same as that of scoring every campaign.
   */
  match(request: MatchRequest): MatchResult | null {
    return this.resultOf(this.search(request, null, this.readingOf(request)));
  }

  /**
   * The best `limit` campaigns (1–3) that pass the publisher's `controls`, of distinct
   * advertisers, best first: the best campaign, then the best of another advertiser, and so
   * on (one search each). Fewer when fewer advertisers match; none, with the reason, when
   * targeting or the controls took every match away. Without controls and with one ad it is
   * `match`.
   */
  select(request: MatchRequest, controls: MatchControls | null, limit = 1): Selection {
    const filter =
      controls === null && limit === 1
        ? null
        : compileFilter(this.ranked, this.keywords, controls ?? {}, limit > 1);
    const results: MatchResult[] = [];
    const reading = this.readingOf(request);
    let offTarget = false;
    while (results.length < limit) {
      const search = this.search(request, filter, reading);
      const result = this.resultOf(search);
      if (result === null) {
        offTarget = results.length === 0 && search !== null && search.offTarget;
        break;
      }
      results.push(result);
      filter?.advertiserCodes.add(this.ranked.advertisers.find(result.campaign.advertiserId)!);
    }
    return { results, unmet: unmetOf(filter, offTarget) };
  }

  /**
   * One walk for the best campaign; null when the request sends no keyword a campaign holds
   * (or only blocked ones). With no winner, every candidate was scored: the walk skips
   * campaigns only against a best score.
   */
  private search(
    request: MatchRequest,
    filter: MatchFilter | null,
    reading: RequestReading,
  ): Search | null {
    const stamp = this.nextStamp();
    let sent = this.markSentKeywords(request, reading, stamp);
    if (sent.length === 0) return null;
    let conversational = markConversationKeywords(
      this.keywords,
      this.request,
      reading.conversationWords,
      stamp,
    );
    if (filter !== null) {
      sent = filter.withoutBlocked(sent, true);
      if (sent.length === 0) return null;
      conversational = filter.withoutBlocked(conversational, false);
    }
    const search = new Search(this.ranked, this.request, request, filter, reading.relevanceFactor);
    walkKeywordLists(this.ranked, this.keywords, this.request, search, sent, conversational);
    return search;
  }

  private resultOf(search: Search | null): MatchResult | null {
    if (search === null || search.best < 0) return null;
    return {
      campaign: this.campaignAt(search.best),
      relevance: search.bestRelevance,
      score: search.bestScore,
    };
  }

  private campaignAt(rank: number): IndexedCampaign {
    const { ranked } = this;
    const meta = ranked.facts[rank * FACTS_PER_CAMPAIGN + META];
    const targeting = ranked.targetings[Math.floor(meta / TARGETING_UNIT)];
    const end = ranked.facts[(rank + 1) * FACTS_PER_CAMPAIGN + META] % TARGETING_UNIT;
    const keywords: string[] = [];
    for (let at = meta % TARGETING_UNIT; at < end; at++) {
      keywords.push(this.keywords.names[ranked.keywordIds[at]]);
    }
    const input = ranked.inputOf[rank];
    const { strings } = ranked;
    const category = ranked.categoryOf[rank];
    const clickIdParam = ranked.clickIdParamOf[rank];
    const campaign: IndexedCampaign = {
      id: strings.ids.at(input),
      advertiserId: ranked.advertisers.values[ranked.advertiserOf[rank]],
      name: strings.names.at(input),
      text: strings.texts.at(input),
      imageUrl: strings.imageUrls.at(input),
      targetUrl: strings.targetUrls.at(input),
      category: category === NO_CATEGORY ? null : ranked.categories.values[category],
      keywords,
      bidMicros: ranked.facts[rank * FACTS_PER_CAMPAIGN + BID],
      countries: [...targeting.countries],
      devices: [...targeting.devices],
      createdAt: ranked.createdAt[rank],
    };
    // Absent means the default, as the campaigns were added (most of them).
    const param =
      clickIdParam === NO_CLICK_ID_PARAM ? null : ranked.clickIdParams.values[clickIdParam];
    if (param !== DEFAULT_CLICK_ID_PARAM) campaign.clickIdParam = param;
    return campaign;
  }

  private nextStamp(): number {
    const { request } = this;
    if (request.stamp === 0x3fffffff) {
      request.stamps.fill(0);
      request.stamp = 0;
    }
    return ++request.stamp;
  }

  /**
   * The indexed keywords the request's sent keywords meet, marked as sent: at full weight
   * those sent as written, at a share of it those met by translation or word by word.
   */
  private markSentKeywords(
    request: MatchRequest,
    reading: RequestReading,
    stamp: number,
  ): number[] {
    const { stamps, reach, sent, sentWeights } = this.request;
    const { ids: keywordIds, weights, words } = this.keywords;
    const ids: number[] = [];
    const note = (id: number, share: number, position: number): void => {
      const value = share * weights[id];
      const bit = sentBit(position);
      if (stamps[id] !== stamp) {
        stamps[id] = stamp;
        reach[id] = value;
        sent[id] = bit;
        ids.push(id);
        return;
      }
      if (value > reach[id]) reach[id] = value;
      sent[id] |= bit;
    };
    request.keywords.forEach((keyword, position) => {
      const id = keywordIds.get(keyword);
      if (id !== undefined) note(id, 1, position);
    });
    const asWritten = ids.length;
    sentWeights.fill(0);
    resolveSentKeywords(
      words,
      this.sentPhrases,
      request.keywords,
      reading.languageMask,
      reading.conversationHas,
      note,
      (position, weight) => {
        if (position < SENT_BITS) sentWeights[position] = weight;
      },
    );
    this.request.sentTotal = sentWeights.reduce((sum, weight) => sum + weight, 0);
    // A sent word shared by hundreds of phrases would otherwise add hundreds of lists to
    // walk, for keywords that each reach little; keywords sent as written always count.
    const { maxWordMatchedKeywords: most } = RELEVANCE_TUNING;
    if (ids.length - asWritten <= most) return ids;
    const byWords = ids.slice(asWritten).sort((a, b) => reach[b] - reach[a] || a - b);
    for (const dropped of byWords.slice(most)) stamps[dropped] = 0;
    return [...ids.slice(0, asWritten), ...byWords.slice(0, most)];
  }

  /** What every search of one request shares: its languages, conversation words and intent. */
  private readingOf(request: Pick<MatchRequest, 'conversation' | 'locale'>): RequestReading {
    const read = readConversation(request.conversation, this.keywords.phraseWordFilter);
    const language = languageOfTag(request.locale) ?? read.language;
    let words: Set<string | null> | null = null;
    return {
      conversationWords: read.words,
      languageMask: language === null ? ALL_LANGUAGES : languageBit(language),
      // A Set only for a request that asks (one with a partly met keyword).
      conversationHas: (word) => (words ??= new Set(read.words)).has(word),
      // A conversation that shows no wish to get anything lowers every relevance, so that
      // only a strong match stays above `minRelevance` there.
      relevanceFactor: read.intent === false ? RELEVANCE_TUNING.noIntentFactor : 1,
    };
  }

  /**
   * For "why this ad", on the served campaigns only: the best match, word by word, of a
   * keyword's forms (itself and its translations) with one of the request's sent keywords,
   * as `search` scores it, or null when none counts. The request's words are read once.
   */
  formMatcher(
    request: Pick<MatchRequest, 'keywords' | 'conversation' | 'locale'>,
  ): (keyword: string) => KeywordFormMatch | null {
    const { ids, words } = this.keywords;
    const { languageMask, conversationHas } = this.readingOf(request);
    const matcher = new FormMatcher(
      words,
      request.keywords,
      (phrase) => this.sentPhrases.read(phrase, languageMask),
      languageMask,
      conversationHas,
    );
    return (keyword) => {
      const id = ids.get(keyword);
      return id === undefined ? null : matcher.best(id, keyword);
    };
  }

  /** The keywords that a translation phrase, sent as written, stands for. */
  translatedKeywords(phrase: string): string[] {
    const ids = this.keywords.words.translations.get(phrase) ?? [];
    return ids.map((id) => this.keywords.names[id]);
  }
}

/**
 * Why `select` found no ad: what the controls refused, else whether targeting refused a
 * match (`no_targeted_match`), else nothing matched.
 */
function unmetOf(filter: MatchFilter | null, offTarget: boolean): Selection['unmet'] {
  const unmet = filter === null ? 'no_match' : filter.unmet;
  return unmet === 'no_match' && offTarget ? 'no_targeted_match' : unmet;
}
