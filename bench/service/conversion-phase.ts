import { randomBytes } from 'node:crypto';
import { ClickIdSigner } from '@/tracking/click-id';
import { log } from '../common/log';
import { CLICK_SIGNING_SECRET, type Options } from '../common/options';
import { closedLoop, load, sum, type LoadResult } from '../load/load';
import { conversionRequests } from '../load/requests';
import type { BenchDatabase, Seeded } from '../seed/database';

/**
 * `POST /api/conversions` after the click phase: the click ids of the advertiser's billed
 * clicks (their stored ids signed as the service signs them, src/tracking/click-id.ts), sent
 * back with the seed's advertiser key, a batch of 1 and of 100 conversions a request.
 */

/** The batch sizes measured, a row each. */
export const CONVERSION_BATCHES = [1, 100];
/** Conversions of the same click are allowed: the ids repeat once these run out. */
const MAX_CLICK_IDS = 10_000;
/** The probe that sizes the warm-up: about this many conversions (at least a request a connection). */
const PROBE_CONVERSIONS = 1_000;

export interface ConversionPhase {
  batch: number;
  /** The measured closed loop (requests a second: `result.requestsPerSecond`). */
  result: LoadResult;
  conversionsPerSecond: number;
  /** Items accepted, and answered duplicate or rejected, over the probe, warm-up and measure. */
  accepted: number;
  notAccepted: number;
  /** Requests of the probe, warm-up and measure that failed or were not answered 2xx. */
  failed: number;
  errors: number;
}

/** The click ids (tokens) of up to 10,000 of the seeded advertiser's billed clicks. */
export async function billedClickIds(db: BenchDatabase, seeded: Seeded): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `SELECT k.id FROM clicks k JOIN campaigns c ON c.id = k.campaign_id
      WHERE k.status = 'billed' AND c.advertiser_id = '${seeded.advertiserId}'
      LIMIT ${MAX_CLICK_IDS}`,
  );
  const signer = new ClickIdSigner(CLICK_SIGNING_SECRET);
  return rows.map((row) => signer.sign(row.id));
}

/**
 * A probe, a warm-up and a measured closed loop of conversions, `batch` a request. The
 * measured loop asks for 1.3 × the warm-up's rate × the measured seconds, not the main
 * phases' 2 ×: two rows, each about as long as the view phase, rather than twice that.
 */
export async function measureConversions(
  url: string,
  clickIds: string[],
  seeded: Seeded,
  batch: number,
  options: Options,
): Promise<ConversionPhase> {
  // Event ids of their own per run and batch size: every item is a new conversion.
  const prefix = `bench-${randomBytes(4).toString('hex')}-b${batch}`;
  const set = conversionRequests(clickIds, seeded.advertiserKey, batch, prefix);
  const base = { url, requests: set.requests, connections: options.connections };
  log(`conversions: batch of ${batch}, closed loop over ${clickIds.length} billed clicks' ids`);
  const probe = await load({
    ...base,
    amount: Math.max(options.connections, Math.round(PROBE_CONVERSIONS / batch)),
  });
  const warm = await closedLoop(base, options.warmup, probe.requestsPerSecond);
  const result = await closedLoop(base, options.measure, warm.requestsPerSecond);
  const counts = set.counts();
  const phases = [probe, warm, result];
  const failed = phases.reduce((n, r) => n + r.errors + r.non2xx, 0);
  const totals = sum(phases);
  if (counts.notAccepted > 0 || failed > 0)
    log(
      `conversions, batch of ${batch}: ${counts.notAccepted} items not accepted, ${failed} of ${totals.responses} requests failed`,
    );
  const conversionsPerSecond = result.requestsPerSecond * batch;
  log(
    `conversions, batch of ${batch}: ${result.requestsPerSecond.toFixed(0)} req/s = ${conversionsPerSecond.toFixed(0)} conversions/s, p99 ${result.p99} ms`,
  );
  return {
    batch,
    result,
    conversionsPerSecond,
    accepted: counts.accepted,
    notAccepted: counts.notAccepted,
    failed,
    errors: totals.errors,
  };
}
