import type { BillableFigures, StatsRow } from './api';
import { eachDay } from './dates';

export interface DayFigures extends BillableFigures {
  date: string;
}

export interface ModelFigures extends BillableFigures {
  modelId: string;
  name: string;
}

const zero = (): BillableFigures => ({ impressions: 0, clicks: 0, ctr: 0, earnings: 0 });

/** clicks ÷ impressions; 0 without impressions, as the API computes it. */
const ctrOf = (f: BillableFigures): number => (f.impressions > 0 ? f.clicks / f.impressions : 0);

/** Sums money as integer micros (the service's own unit), so totals never drift. */
const addMoney = (a: number, b: number): number => Math.round(a * 1e6 + b * 1e6) / 1e6;

function add(into: BillableFigures, row: BillableFigures): void {
  into.impressions += row.impressions;
  into.clicks += row.clicks;
  into.earnings = addMoney(into.earnings, row.earnings);
  into.ctr = ctrOf(into);
}

/** One entry per day of the range, all models summed; the API leaves quiet days out. */
export function perDay(rows: StatsRow[], from: string, to: string): DayFigures[] {
  const days = new Map(eachDay(from, to).map((date) => [date, { date, ...zero() }]));
  for (const row of rows) {
    const day = days.get(row.date);
    if (day) add(day, row);
  }
  return [...days.values()];
}

/**
 * One entry per model, in the order of `models` (all of them, quiet ones with zeros), then
 * any model the rows name that the list does not.
 */
export function perModel(rows: StatsRow[], models: { id: string; name: string }[]): ModelFigures[] {
  const byId = new Map<string, ModelFigures>(
    models.map((m) => [m.id, { modelId: m.id, name: m.name, ...zero() }]),
  );
  for (const row of rows) {
    let entry = byId.get(row.model_id);
    if (!entry) {
      entry = { modelId: row.model_id, name: `Model ${row.model_id.slice(0, 8)}`, ...zero() };
      byId.set(row.model_id, entry);
    }
    add(entry, row);
  }
  return [...byId.values()];
}

/** Revenue per 1,000 impressions; 0 without impressions. */
export const rpmOf = (f: { impressions: number; earnings: number }): number =>
  f.impressions > 0 ? Math.round((f.earnings / f.impressions) * 1000 * 1e6) / 1e6 : 0;

export interface UnbilledLine {
  date: string;
  modelId: string;
  byReason: Record<string, number>;
  total: number;
}

/** Unbilled clicks per day and model (newest day first), a count per reason. */
export function unbilledPerDayAndModel(
  rows: { date: string; model_id: string; reason: string; clicks: number }[],
): UnbilledLine[] {
  const lines = new Map<string, UnbilledLine>();
  for (const row of rows) {
    const id = `${row.date}|${row.model_id}`;
    let line = lines.get(id);
    if (!line) {
      line = { date: row.date, modelId: row.model_id, byReason: {}, total: 0 };
      lines.set(id, line);
    }
    line.byReason[row.reason] = (line.byReason[row.reason] ?? 0) + row.clicks;
    line.total += row.clicks;
  }
  return [...lines.values()].sort(
    (a, b) => b.date.localeCompare(a.date) || a.modelId.localeCompare(b.modelId),
  );
}

/**
 * The reasons in the API's order, those with clicks in the range first: every reason gets its
 * line, so a publisher can read what each one means before it happens.
 */
export function reasonsWithCounts<R extends { reason: string }>(
  reasons: R[],
  totals: { reason: string; clicks: number }[],
): (R & { clicks: number })[] {
  const counts = new Map(totals.map((t) => [t.reason, t.clicks]));
  const withCounts = reasons.map((r) => ({ ...r, clicks: counts.get(r.reason) ?? 0 }));
  return [...withCounts.filter((r) => r.clicks > 0), ...withCounts.filter((r) => r.clicks === 0)];
}
