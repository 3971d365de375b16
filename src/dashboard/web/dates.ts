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
