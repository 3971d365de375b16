import type { FieldError } from '@/common/problem';

/** A year, leap day included: enough for a yearly report, small enough to stay fast. */
export const MAX_STATS_DAYS = 366;

const DAY_MS = 86_400_000;

/** Days from `from` to `to`, both counted; both are `YYYY-MM-DD` calendar days (UTC). */
export function daysInRange(from: string, to: string): number {
  return (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS + 1;
}

/** Why a report range is refused, as field errors; empty when it is fine. */
export function statsRangeErrors(from: string, to: string): FieldError[] {
  const days = daysInRange(from, to);
  if (days < 1) return [{ field: 'to', message: 'to must not be before from' }];
  if (days > MAX_STATS_DAYS) {
    return [{ field: 'to', message: `the range may span at most ${MAX_STATS_DAYS} days` }];
  }
  return [];
}
