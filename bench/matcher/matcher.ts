import 'reflect-metadata';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { CampaignIndex } from '@/campaign-index/matching/campaign-index';
import { CampaignIndexBuilder } from '@/campaign-index/matching/campaign-index-builder';
import type { MatchRequest } from '@/campaign-index/matching/matching.types';
import { parseKeywordList } from '@/common/keywords';
import { resolveCountry, resolveDevice } from '@/campaign-index/matching/targeting';
import {
  generateCampaign,
  generateRequest,
  type Vocabulary,
  vocabularyFor,
} from '../seed/generate';

/**
 * The matcher alone: builds a `CampaignIndex` of N generated campaigns and times `match()`
 * for generated requests (sent keywords, ~700 characters of conversation naming several
 * campaign keywords, some with location and device). Campaigns are generated and added a
 * page at a time, as the service reads them, so that only the index stays on the heap.
 * Prints one JSON line per size.
 *
 *   node dist/bench/matcher/matcher.js 10000 100000 1000000
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
  /** Off-heap buffers (the index's strings), not traced by the GC. */
  arrayBuffersMiB?: number;
  /** Median pause of a forced full (major) GC with the index live, ms. */
  majorGcMs?: number;
  /** Resident set of the whole process. */
  rssMiB?: number;
}

const DISTINCT_REQUESTS = 5_000;
const ROUNDS = 4;
const PAGE = 10_000;
const FORCED_GCS = 5;

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

/**
 * Generates the campaigns a page at a time into a builder, as the service reads them, so
 * that neither they nor the builder outlive the build. Only adding and building are timed.
 */
function buildIndex(
  campaignCount: number,
  vocabulary: Vocabulary,
): { index: CampaignIndex; buildSeconds: number } {
  const createdAt = Date.now() - 86_400_000;
  const builder = new CampaignIndexBuilder();
  let buildNanos = 0n;
  for (let first = 0; first < campaignCount; first += PAGE) {
    const page = Array.from({ length: Math.min(PAGE, campaignCount - first) }, (_, i) =>
      generateCampaign(vocabulary, first + i, createdAt),
    );
    const started = process.hrtime.bigint();
    for (const campaign of page) builder.add(campaign);
    buildNanos += process.hrtime.bigint() - started;
  }
  const started = process.hrtime.bigint();
  const index = builder.build();
  return { index, buildSeconds: Number(buildNanos + process.hrtime.bigint() - started) / 1e9 };
}

export function benchMatcher(campaignCount: number): MatcherResult {
  const vocabulary = vocabularyFor(campaignCount);
  const { index, buildSeconds } = buildIndex(campaignCount, vocabulary);
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
  const memory = process.memoryUsage();
  const majorGcMs = timeMajorGc(index);
  return {
    campaigns: campaignCount,
    buildSeconds,
    matched: full.matched / requests.length,
    requests: full.times.length,
    p50: percentile(full.times, 0.5),
    p99: percentile(full.times, 0.99),
    p999: percentile(full.times, 0.999),
    keywordsOnlyP99: percentile(bare.times, 0.99),
    heapMiB: memory.heapUsed / 2 ** 20,
    arrayBuffersMiB: memory.arrayBuffers / 2 ** 20,
    majorGcMs,
    rssMiB: memory.rss / 2 ** 20,
  };
}

/**
 * A major GC traces every live heap object, so its pause grows with what the index keeps
 * on the heap: the latency that a service with a large index pays now and then.
 */
function timeMajorGc(index: CampaignIndex): number {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const served = index.size;
  const pauses = Array.from({ length: FORCED_GCS }, () => {
    const started = process.hrtime.bigint();
    gc();
    return Number(process.hrtime.bigint() - started) / 1e6;
  }).sort((a, b) => a - b);
  // Reading the index after the collections keeps it live through them.
  if (index.size !== served) throw new Error('the index changed while the GC was timed');
  return pauses[Math.floor(FORCED_GCS / 2)];
}

if (require.main === module) {
  for (const size of process.argv.slice(2).map(Number)) {
    console.log(JSON.stringify(benchMatcher(size)));
  }
}
