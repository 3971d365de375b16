import type { Device } from '@/campaigns/campaigns/devices';
import { DEFAULT_CLICK_ID_PARAM } from '@/campaigns/entities/campaign.entity';
import type { IndexedCampaign } from '@/campaign-index/matching/matching.types';
import { STEPS_PER_YIELD } from './build-slices';
import { CampaignIndex } from './campaign-index';
import { indexPhrases } from './index/conversation-keywords';
import { IdTable, idHash } from './index/id-table';
import {
  BID,
  BID_PER_WEIGHT,
  type CampaignStrings,
  FACTS_PER_CAMPAIGN,
  META,
  NO_CATEGORY,
  NO_CLICK_ID_PARAM,
  type RankedCampaigns,
  TARGETING_UNIT,
  type Targeting,
  TOTAL_WEIGHT,
} from './index/index-layout';
import { mergeSort } from './index/merge-sort';
import { normaliseKeyword } from '@/common/keywords';
import { RELEVANCE_TUNING } from './relevance-tuning';
import { keywordWeight } from './search/scoring';
import { StringColumn } from './index/string-column';
import { ValueCodes } from './index/value-codes';
import { buildWordIndex } from './words/word-index-builder';

/**
 * Builds a `CampaignIndex` from campaigns added one by one (say, page by page as a snapshot
 * is read), keeping only what the index needs of each: no campaign object is retained.
 * `build` finishes at once; `buildInSlices` finishes in slices of a few milliseconds, so
 * that a million campaigns never hold the event loop for seconds.
 */
export class CampaignIndexBuilder {
  private readonly strings: CampaignStrings = {
    ids: new StringColumn(),
    names: new StringColumn(),
    texts: new StringColumn(),
    imageUrls: new StringColumn<string | null>(),
    targetUrls: new StringColumn(),
  };
  /** `idHash` of each added campaign's id. */
  private readonly idHashes: number[] = [];
  private readonly bids: number[] = [];
  private readonly createdAts: number[] = [];
  /** Codes in `advertisers` and `categories` of each added campaign (`NO_CATEGORY`: none). */
  private readonly advertiserCodes: number[] = [];
  private readonly categoryCodes: number[] = [];
  private readonly advertisers = new ValueCodes();
  private readonly categories = new ValueCodes();
  /** Codes in `clickIdParams` (`NO_CLICK_ID_PARAM`: none): a few names for every campaign. */
  private readonly clickIdParamCodes: number[] = [];
  private readonly clickIdParams = new ValueCodes();
  private readonly targetingOf: number[] = [];
  private readonly targetings: Targeting[] = [{ countries: [], devices: [] }];
  private readonly targetingIds = new Map<string, number>();
  /** Keyword ids per added campaign, flattened: campaign i owns `[keywordStart[i] .. keywordStart[i + 1])`. */
  private readonly keywordStart: number[] = [0];
  private keywordIds = new Int32Array(1024);
  private keywordCount = 0;
  private readonly vocabulary = new Map<string, number>();
  /** Keyword id → translations of it (normalised), from every campaign that holds it. */
  private readonly translations = new Map<number, Set<string>>();
  /** Keyword as written → its id, or -1 when it normalises to nothing: normalises each spelling once. */
  private readonly spellings = new Map<string, number>();

  get size(): number {
    return this.bids.length;
  }

  /**
   * Adds a campaign, unless it can never be served (no keywords, or a bid that is not a
   * finite non-negative number).
   */
  add(campaign: IndexedCampaign): void {
    if (
      campaign.keywords.length === 0 ||
      !Number.isFinite(campaign.bidMicros) ||
      campaign.bidMicros < 0
    ) {
      return;
    }
    const { strings } = this;
    strings.ids.push(campaign.id);
    strings.names.push(campaign.name);
    strings.texts.push(campaign.text);
    strings.imageUrls.push(campaign.imageUrl);
    strings.targetUrls.push(campaign.targetUrl);
    this.idHashes.push(idHash(campaign.id));
    this.bids.push(campaign.bidMicros);
    this.createdAts.push(campaign.createdAt);
    this.advertiserCodes.push(this.advertisers.codeOf(campaign.advertiserId));
    this.categoryCodes.push(
      campaign.category === null ? NO_CATEGORY : this.categories.codeOf(campaign.category),
    );
    const { clickIdParam = DEFAULT_CLICK_ID_PARAM } = campaign;
    this.clickIdParamCodes.push(
      clickIdParam === null ? NO_CLICK_ID_PARAM : this.clickIdParams.codeOf(clickIdParam),
    );
    this.targetingOf.push(this.targetingId(campaign));
    const first = this.keywordCount;
    for (const raw of campaign.keywords) {
      // Normalised again, defensively: a keyword counted twice would skew the campaign's total.
      const id = this.keywordId(raw);
      if (id < 0 || this.holds(first, id)) continue;
      if (this.keywordCount === this.keywordIds.length) {
        const grown = new Int32Array(this.keywordIds.length * 2);
        grown.set(this.keywordIds);
        this.keywordIds = grown;
      }
      this.keywordIds[this.keywordCount++] = id;
    }
    this.keywordStart.push(this.keywordCount);
    if (campaign.translations !== undefined) this.addTranslations(campaign.translations, first);
  }

  /**
   * Translations belong to the phrase they translate: once one campaign says what "learn
   * spanish" is in French, every campaign with that keyword is reached through it. A
   * translation of a keyword the campaign does not hold is ignored.
   */
  private addTranslations(
    translations: Readonly<Record<string, readonly string[]>>,
    first: number,
  ) {
    for (const [keyword, phrases] of Object.entries(translations)) {
      const id = this.spellings.get(keyword) ?? this.vocabulary.get(normaliseKeyword(keyword));
      if (id === undefined || id < 0 || !this.holds(first, id)) continue;
      for (const raw of phrases) {
        const phrase = normaliseKeyword(raw);
        if (phrase === '' || this.vocabulary.get(phrase) === id) continue;
        let known = this.translations.get(id);
        if (known === undefined) this.translations.set(id, (known = new Set()));
        known.add(phrase);
      }
    }
  }

  build(): CampaignIndex {
    const steps = this.steps();
    for (;;) {
      const step = steps.next();
      if (step.done === true) return step.value;
    }
  }

  /** Builds in slices of about `sliceMs` of work, giving the event loop a turn between them. */
  async buildInSlices(sliceMs: number): Promise<CampaignIndex> {
    const steps = this.steps();
    for (;;) {
      const until = performance.now() + sliceMs;
      let step = steps.next();
      while (step.done !== true && performance.now() < until) step = steps.next();
      if (step.done === true) return step.value;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }

  /** Whether the campaign being added, whose keywords start at `first`, already holds `id`. */
  private holds(first: number, id: number): boolean {
    for (let at = first; at < this.keywordCount; at++) if (this.keywordIds[at] === id) return true;
    return false;
  }

  private keywordId(raw: string): number {
    const known = this.spellings.get(raw);
    if (known !== undefined) return known;
    const keyword = normaliseKeyword(raw);
    let id = -1;
    if (keyword !== '') {
      id = this.vocabulary.get(keyword) ?? this.vocabulary.size;
      if (id === this.vocabulary.size) this.vocabulary.set(keyword, id);
    }
    this.spellings.set(raw, id);
    return id;
  }

  /** Campaigns with the same countries and devices share one `Targeting`. */
  private targetingId({ countries, devices }: IndexedCampaign): number {
    if (countries.length === 0 && devices.length === 0) return 0;
    const key = `${countries.join(',')}|${devices.join(',')}`;
    let id = this.targetingIds.get(key);
    if (id === undefined) {
      id = this.targetings.length;
      this.targetings.push({ countries: [...countries], devices: [...devices] as Device[] });
      this.targetingIds.set(key, id);
    }
    return id;
  }

  /** The build, yielding every `STEPS_PER_YIELD` or so iterations of its loops. */
  private *steps(): Generator<void, CampaignIndex> {
    const count = this.bids.length;
    const vocabularySize = this.vocabulary.size;
    const start = Int32Array.from(this.keywordStart);
    const keywordIds = this.keywordIds.subarray(0, this.keywordCount);

    const frequency = new Int32Array(vocabularySize);
    for (let at = 0; at < keywordIds.length; at++) {
      frequency[keywordIds[at]]++;
      if (at % STEPS_PER_YIELD === 0) yield;
    }
    const weights = Float64Array.from(frequency, (holders) => keywordWeight(count, holders));
    const totals = new Float64Array(count);
    const bidPerWeight = new Float64Array(count);
    const heaviest: number[] = [];
    for (let input = 0; input < count; input++) {
      heaviest.length = 0;
      for (let at = start[input]; at < start[input + 1]; at++) {
        heaviest.push(weights[keywordIds[at]]);
      }
      if (heaviest.length > RELEVANCE_TUNING.relevanceKeywords) heaviest.sort((a, b) => b - a);
      for (let at = 0; at < Math.min(RELEVANCE_TUNING.relevanceKeywords, heaviest.length); at++) {
        totals[input] += heaviest[at];
      }
      bidPerWeight[input] = totals[input] > 0 ? this.bids[input] / totals[input] : 0;
      if (input % STEPS_PER_YIELD === 0) yield;
    }

    const { bids, createdAts, strings, idHashes } = this;
    const order = yield* mergeSort(
      Int32Array.from({ length: count }, (_, index) => index),
      (a, b) =>
        bidPerWeight[b] - bidPerWeight[a] ||
        bids[b] - bids[a] ||
        createdAts[a] - createdAts[b] ||
        strings.ids.compare(a, b),
    );
    const { ids, names, texts, imageUrls, targetUrls } = strings;
    for (const column of [ids, names, texts, imageUrls, targetUrls]) yield* column.compact();

    const ranked: RankedCampaigns = {
      count,
      inputOf: order,
      strings: { ...strings },
      facts: new Float64Array((count + 1) * FACTS_PER_CAMPAIGN),
      targetings: this.targetings,
      createdAt: new Float64Array(count),
      advertiserOf: new Int32Array(count),
      advertisers: this.advertisers,
      categoryOf: new Int32Array(count),
      categories: this.categories,
      clickIdParamOf: new Int32Array(count),
      clickIdParams: this.clickIdParams,
      keywordIds: new Int32Array(keywordIds.length),
      byId: new IdTable(count, strings.ids, order),
      maxTotalWeight: 0,
      maxKeywordsPerCampaign: 0,
    };
    const postingStart = new Int32Array(vocabularySize + 1);
    for (let id = 0; id < vocabularySize; id++)
      postingStart[id + 1] = postingStart[id] + frequency[id];
    // Filling the lists in rank order leaves each one sorted: no sort needed.
    const fill = postingStart.slice(0, vocabularySize);
    const postings = new Int32Array(keywordIds.length);
    let written = 0;
    for (let rank = 0; rank < count; rank++) {
      const input = order[rank];
      const at = rank * FACTS_PER_CAMPAIGN;
      ranked.facts[at + BID_PER_WEIGHT] = bidPerWeight[input];
      ranked.facts[at + BID] = bids[input];
      ranked.facts[at + TOTAL_WEIGHT] = totals[input];
      ranked.facts[at + META] = written + TARGETING_UNIT * this.targetingOf[input];
      ranked.createdAt[rank] = createdAts[input];
      ranked.advertiserOf[rank] = this.advertiserCodes[input];
      ranked.categoryOf[rank] = this.categoryCodes[input];
      ranked.clickIdParamOf[rank] = this.clickIdParamCodes[input];
      ranked.maxTotalWeight = Math.max(ranked.maxTotalWeight, totals[input]);
      const keywordCount = start[input + 1] - start[input];
      ranked.maxKeywordsPerCampaign = Math.max(ranked.maxKeywordsPerCampaign, keywordCount);
      for (let from = start[input]; from < start[input + 1]; from++) {
        const id = keywordIds[from];
        ranked.keywordIds[written++] = id;
        postings[fill[id]++] = rank;
      }
      ranked.byId.add(rank, idHashes[input]);
      if (rank % STEPS_PER_YIELD === 0) yield;
    }

    ranked.facts[count * FACTS_PER_CAMPAIGN + META] = written;
    const words = yield* buildWordIndex(this.vocabulary, this.translations, frequency, count);
    const phrases = yield* indexPhrases(this.vocabulary, words.words);
    return new CampaignIndex(ranked, {
      ids: this.vocabulary,
      names: [...this.vocabulary.keys()],
      weights,
      postingStart,
      postings,
      ...phrases,
      words,
    });
  }
}

/**
 * The index of `campaigns`, built at once. Campaigns without keywords, or with a bid that
 * is not a finite non-negative number, can never be served and are left out. Ids are
 * expected to be unique.
 */
export function buildCampaignIndex(campaigns: readonly IndexedCampaign[]): CampaignIndex {
  const builder = new CampaignIndexBuilder();
  for (const campaign of campaigns) builder.add(campaign);
  return builder.build();
}
