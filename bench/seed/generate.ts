import type { Device } from '@/campaigns/campaigns/devices';
import type { IndexedCampaign } from '@/campaign-index/matching/matching.types';
import { CONTENT_CATEGORIES } from '@/common/content-categories';

/**
 * Synthetic, reproducible data for the benchmark: a keyword vocabulary whose use follows a
 * Zipf-like law (a few keywords are shared by many campaigns, most by few), campaigns drawn
 * from it, and fetch-ads requests that send a few keywords and a conversation of about
 * 700 characters mentioning several campaign keywords, as a chat transcript would.
 */

/** mulberry32: a small seeded PRNG, so that every run generates the same data. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'ne',
  'ru',
  'sa',
  'ti',
  'vo',
  'ze',
  'pa',
  'do',
  'gu',
  'be',
  'fi',
  'ho',
  'ja',
  'qu',
  'wi',
  'xo',
  'ye',
  'cor',
  'tan',
  'lex',
  'mor',
  'pix',
  'dra',
  'sen',
  'vul',
];

/** English filler: none of it is a vocabulary word, as most of a real conversation is not. */
const FILLER = (
  'the a to and of in is it you that for on with as are this be at or have from by not ' +
  'what can your which should how best would like need help want about my me do does ' +
  'please tell compare recommend cheap good price buy find looking really thanks also'
).split(' ');

export const COUNTRIES = ['US', 'DE', 'FR', 'GB', 'NL', 'ES', 'IT', 'CA', 'AU', 'JP'];
const LOCATIONS = ['Berlin, Germany', 'Paris, France', 'New York, USA', 'London, UK', 'Japan'];
const DEVICES: Device[] = ['mobile', 'tablet', 'desktop'];
const USER_AGENTS = [
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36',
  'mobile',
  'desktop',
];

export class Vocabulary {
  readonly words: string[];
  private readonly cumulative: Float64Array;

  /** `size` keywords, a fifth of them two-word phrases; weight of rank r ∝ 1 / r^0.9. */
  constructor(size: number, seed = 1) {
    const next = random(seed);
    const seen = new Set<string>();
    this.words = [];
    while (this.words.length < size) {
      const length = 2 + Math.floor(next() * 3);
      let word = '';
      for (let i = 0; i < length; i++) word += SYLLABLES[Math.floor(next() * SYLLABLES.length)];
      if (next() < 0.2) word += ` ${SYLLABLES[Math.floor(next() * SYLLABLES.length)]}ware`;
      if (seen.has(word)) continue;
      seen.add(word);
      this.words.push(word);
    }
    this.cumulative = new Float64Array(size);
    let total = 0;
    for (let rank = 0; rank < size; rank++) {
      total += 1 / Math.pow(rank + 1, 0.9);
      this.cumulative[rank] = total;
    }
    for (let rank = 0; rank < size; rank++) this.cumulative[rank] /= total;
  }

  /** A keyword drawn with the Zipf-like weights. */
  draw(next: () => number): string {
    const target = next();
    let low = 0;
    let high = this.cumulative.length - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.cumulative[middle] < target) low = middle + 1;
      else high = middle;
    }
    return this.words[low];
  }
}

/** About one distinct keyword per five campaigns, between 2,000 and 200,000. */
export function vocabularyFor(campaigns: number): Vocabulary {
  return new Vocabulary(Math.min(200_000, Math.max(2_000, Math.round(campaigns / 5))));
}

export interface GeneratedCampaign extends IndexedCampaign {
  budgetTotalMicros: number | null;
  budgetDailyMicros: number | null;
}

/**
 * Campaign `index` of a generated set: 3–8 keywords, a bid of 0.05–2.00, 20% targeted by
 * country and/or device; budgets large enough for the run except 1%, which run dry.
 */
export function generateCampaign(
  vocabulary: Vocabulary,
  index: number,
  createdAt: number,
): GeneratedCampaign {
  const next = random(index * 7919 + 17);
  const keywordCount = 3 + Math.floor(next() * 6);
  const keywords = new Set<string>();
  for (let i = 0; i < keywordCount * 3 && keywords.size < keywordCount; i++) {
    keywords.add(vocabulary.draw(next));
  }
  const [first] = keywords;
  const targeted = next() < 0.2;
  const targetCountries = targeted && next() < 0.6;
  const targetDevices = targeted && (!targetCountries || next() < 0.5);
  const budget = next();
  return {
    id: `bench-${String(index).padStart(8, '0')}`,
    // From the index, not from `next`: the other fields stay as they were generated before.
    advertiserId: `bench-advertiser-${index % 1000}`,
    name: `${first} offer ${index}`,
    text: `The best ${[...keywords].join(', ')} deals, compared daily. Try it free for 30 days.`,
    imageUrl: next() < 0.3 ? `https://img.example.com/${index}.png` : null,
    targetUrl: `https://advertiser.example.com/landing/${index}?utm_source=adline`,
    category: CONTENT_CATEGORIES[index % CONTENT_CATEGORIES.length].id,
    keywords: [...keywords],
    bidMicros: 50_000 + Math.floor(next() * 39) * 50_000,
    countries: targetCountries ? [...new Set([pick(COUNTRIES, next), pick(COUNTRIES, next)])] : [],
    devices: targetDevices ? [pick(DEVICES, next)] : [],
    createdAt: createdAt + index,
    budgetTotalMicros: budget < 0.5 ? null : budget < 0.99 ? 100_000_000_000 : 20_000_000,
    budgetDailyMicros: budget > 0.9 && budget < 0.99 ? 50_000_000_000 : null,
  };
}

export interface FetchAdsBody {
  conversation: string;
  context_keywords: string;
  user_location?: string;
  user_device_info?: string;
}

/** A request of about 1 KB: 1–4 sent keywords, a conversation naming 3–6 more. */
export function generateRequest(vocabulary: Vocabulary, index: number): FetchAdsBody {
  const next = random(index * 104729 + 3);
  const sent = new Set<string>();
  const sentCount = 1 + Math.floor(next() * 4);
  while (sent.size < sentCount) sent.add(vocabulary.draw(next));
  const mentioned = 3 + Math.floor(next() * 4);
  const parts: string[] = [];
  let length = 0;
  let mentions = 0;
  while (length < 700) {
    const word =
      mentions < mentioned && next() < 0.08
        ? (mentions++, vocabulary.draw(next))
        : next() < 0.05
          ? [...sent][Math.floor(next() * sent.size)]
          : pick(FILLER, next);
    parts.push(word);
    length += word.length + 1;
    if (next() < 0.07) parts.push(next() < 0.5 ? '?\nAssistant:' : '.\nUser:');
  }
  const body: FetchAdsBody = {
    conversation: parts.join(' '),
    context_keywords: [...sent].join(', '),
  };
  if (next() < 0.4) body.user_location = pick(LOCATIONS, next);
  if (next() < 0.6) body.user_device_info = pick(USER_AGENTS, next);
  return body;
}

function pick<T>(items: readonly T[], next: () => number): T {
  return items[Math.floor(next() * items.length)];
}
