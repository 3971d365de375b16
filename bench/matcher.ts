import 'reflect-metadata';
import { CampaignIndex } from '@/ads/matching/campaign-index';
import type { MatchRequest } from '@/ads/matching/matching.types';
import { parseKeywordList } from '@/ads/matching/normalise';
import { resolveCountry, resolveDevice } from '@/ads/matching/targeting';
import { generateCampaign, generateRequest, vocabularyFor } from './data';

/**
 * The matcher alone: builds a `CampaignIndex` of N generated campaigns and times `match()`
 * for generated requests (sent keywords, ~700 characters of conversation naming several
 * campaign keywords, some with location and device). Prints one JSON line per size.
 *
 *   node dist/bench/matcher.js 10000 100000 1000000
 */
export interface MatcherResult {
  campaigns: number;
  buildSeconds: number;
  matched: number;
  requests: number;
  /** µs per match, with the conversation. */
  p50: number;
  p99: number;
  p999: number;
  /** µs per match with an empty conversation (sent keywords only). */
  keywordsOnlyP99: number;
  heapMiB: number;
  /** Resident set of the whole process, generated campaigns included. */
  rssMiB?: number;
}

const DISTINCT_REQUESTS = 5_000;
const ROUNDS = 4;

function percentile(sorted: Float64Array, p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

function time(
  index: CampaignIndex,
  requests: MatchRequest[],
): { times: Float64Array; matched: number } {
  const times = new Float64Array(requests.length * ROUNDS);
  let matched = 0;
  for (let round = 0; round < ROUNDS; round++) {
    requests.forEach((request, i) => {
      const started = process.hrtime.bigint();
      const result = index.match(request);
      times[round * requests.length + i] = Number(process.hrtime.bigint() - started) / 1000;
      if (result && round === 0) matched++;
    });
  }
  return { times: times.sort(), matched };
}

export function benchMatcher(campaignCount: number): MatcherResult {
  const vocabulary = vocabularyFor(campaignCount);
  const createdAt = Date.now() - 86_400_000;
  const campaigns = Array.from({ length: campaignCount }, (_, i) =>
    generateCampaign(vocabulary, i, createdAt),
  );
  const started = process.hrtime.bigint();
  const index = CampaignIndex.build(campaigns);
  const buildSeconds = Number(process.hrtime.bigint() - started) / 1e9;
  const requests: MatchRequest[] = Array.from({ length: DISTINCT_REQUESTS }, (_, i) => {
    const body = generateRequest(vocabulary, i);
    return {
      keywords: parseKeywordList(body.context_keywords),
      conversation: body.conversation,
      country: resolveCountry(body.user_location),
      device: resolveDevice(body.user_device_info),
    };
  });
  // Warm-up: let the JIT settle before measuring.
  time(index, requests.slice(0, 1000));
  const full = time(index, requests);
  const bare = time(
    index,
    requests.map((request) => ({ ...request, conversation: '' })),
  );
  return {
    campaigns: campaignCount,
    buildSeconds,
    matched: full.matched / requests.length,
    requests: full.times.length,
    p50: percentile(full.times, 0.5),
    p99: percentile(full.times, 0.99),
    p999: percentile(full.times, 0.999),
    keywordsOnlyP99: percentile(bare.times, 0.99),
    heapMiB: process.memoryUsage().heapUsed / 2 ** 20,
    rssMiB: process.memoryUsage().rss / 2 ** 20,
  };
}

if (require.main === module) {
  for (const size of process.argv.slice(2).map(Number)) {
    console.log(JSON.stringify(benchMatcher(size)));
  }
}
