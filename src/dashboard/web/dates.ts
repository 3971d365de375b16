/** Calendar days as the stats API uses them: `YYYY-MM-DD`, in UTC. */

const DAY_MS = 86_400_000;

export const isoDay = (at: Date): string => at.toISOString().slice(0, 10);

export const addDays = (day: string, days: number): string =>
  isoDay(new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS));

/** The last `days` days up to and including today (UTC). */
export function lastDays(days: number, now: Date = new Date()): { from: string; to: string } {
  const to = isoDay(now);
  return { from: addDays(to, -(days - 1)), to };
}

/** Every day from `from` to `to`, both included; empty when `to` is before `from`. */
export function eachDay(from: string, to: string): string[] {
  const days: string[] = [];
  for (let day = from; day <= to && days.length <= 366; day = addDays(day, 1)) days.push(day);
  return days;
}

export const isIsoDay = (value: string): boolean =>
  /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`));

/** The quick ranges of the statistics page, in UTC days. */
export type RangePreset =
  'today' | 'yesterday' | 'last_7_days' | 'last_30_days' | 'this_month' | 'last_month';

export const RANGE_PRESETS: { id: RangePreset; label: string }[] = [
  { id: 'today', label: 'Today' },
  { id: 'yesterday', label: 'Yesterday' },
  { id: 'last_7_days', label: 'Last 7 days' },
  { id: 'last_30_days', label: 'Last 30 days' },
  { id: 'this_month', label: 'This month' },
  { id: 'last_month', label: 'Last month' },
];

export function presetRange(
  preset: RangePreset,
  now: Date = new Date(),
): { from: string; to: string } {
  const today = isoDay(now);
  const monthStart = `${today.slice(0, 7)}-01`;
  switch (preset) {
    case 'today':
      return { from: today, to: today };
    case 'yesterday': {
      const yesterday = addDays(today, -1);
      return { from: yesterday, to: yesterday };
    }
    case 'last_7_days':
      return lastDays(7, now);
    case 'last_30_days':
      return lastDays(30, now);
    case 'this_month':
      return { from: monthStart, to: today };
    case 'last_month': {
      const lastMonthEnd = addDays(monthStart, -1);
      return { from: `${lastMonthEnd.slice(0, 7)}-01`, to: lastMonthEnd };
    }
  }
}

/** Which preset a range is, or null for a custom one. */
export function presetOf(
  range: { from: string; to: string },
  now: Date = new Date(),
): RangePreset | null {
  return (
    RANGE_PRESETS.find((p) => {
      const candidate = presetRange(p.id, now);
      return candidate.from === range.from && candidate.to === range.to;
    })?.id ?? null
  );
}
