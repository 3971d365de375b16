import { type FillOutcome, NO_FILL_REASONS, type NoFillReason } from '@/earnings/fill-outcomes';
import type { DailyModelFills } from '@/earnings/fill-stats.repository';

/** Requests by outcome for one day and model, or a sum of them. */
export type OutcomeCounts = Partial<Record<FillOutcome, number>>;

/** How many requests an answer of `/api/stats` covers, and how many got an ad. */
export interface FillFigures {
  requests: number;
  fills: number;
  /** fills ÷ requests, 6 decimals; null without requests (not 0: nothing was asked). */
  fill_rate: number | null;
  /** Only the reasons with requests, in NO_FILL_REASONS' order. */
  no_fills: Partial<Record<NoFillReason, number>>;
}

const dayAndModel = (day: string, modelId: string) => `${day}|${modelId}`;

/** The stored rows, grouped per day and model (key: `day|modelId`). */
export function outcomesByDayAndModel(
  rows: readonly DailyModelFills[],
): Map<string, OutcomeCounts> {
  const grouped = new Map<string, OutcomeCounts>();
  for (const r of rows) {
    const key = dayAndModel(r.day, r.modelId);
    const counts = grouped.get(key) ?? {};
    counts[r.outcome] = (counts[r.outcome] ?? 0) + r.requests;
    grouped.set(key, counts);
  }
  return grouped;
}

/** All the rows' requests by outcome: the totals' figures. */
export function sumOutcomes(rows: readonly DailyModelFills[]): OutcomeCounts {
  const sum: OutcomeCounts = {};
  for (const r of rows) sum[r.outcome] = (sum[r.outcome] ?? 0) + r.requests;
  return sum;
}

/** The outcomes of one day and model; none when that day and model had no request. */
export const outcomesOf = (
  grouped: ReadonlyMap<string, OutcomeCounts>,
  row: { day: string; modelId: string },
): OutcomeCounts => grouped.get(dayAndModel(row.day, row.modelId)) ?? {};

/**
 * The rows of the billing roll-ups, plus a row (from `empty`) for each day and model that had
 * requests but nothing else (every request a no-fill), by day then model.
 */
export function withRequestOnlyDays<R extends { day: string; modelId: string }>(
  rows: readonly R[],
  grouped: ReadonlyMap<string, OutcomeCounts>,
  empty: (day: string, modelId: string) => R,
): R[] {
  const present = new Set(rows.map((r) => dayAndModel(r.day, r.modelId)));
  const added: R[] = [];
  for (const key of grouped.keys()) {
    if (present.has(key)) continue;
    const [day, modelId] = key.split('|');
    added.push(empty(day, modelId));
  }
  if (added.length === 0) return [...rows];
  const order = (a: R, b: R) =>
    a.day !== b.day ? (a.day < b.day ? -1 : 1) : a.modelId < b.modelId ? -1 : 1;
  return [...rows, ...added].sort(order);
}

export function fillFigures(counts: OutcomeCounts): FillFigures {
  const fills = counts.filled ?? 0;
  let requests = fills;
  const noFills: Partial<Record<NoFillReason, number>> = {};
  for (const reason of NO_FILL_REASONS) {
    const n = counts[reason] ?? 0;
    if (n === 0) continue;
    noFills[reason] = n;
    requests += n;
  }
  return {
    requests,
    fills,
    fill_rate: requests > 0 ? Math.round((fills / requests) * 1e6) / 1e6 : null,
    no_fills: noFills,
  };
}
