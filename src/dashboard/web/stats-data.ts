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
