import { utcDay } from '@/common/clock';

export type OverviewPeriodName = 'today' | 'yesterday' | 'this_month' | 'last_month';

/** UTC days, both counted. */
export interface DayRange {
  from: string;
  to: string;
}

export interface OverviewPeriod extends DayRange {
  period: OverviewPeriodName;
  previous: DayRange;
}

const day = (year: number, month: number, date: number) =>
  utcDay(new Date(Date.UTC(year, month, date)));

/** The last day of a month (month 0–11; out-of-range months roll over, as Date.UTC does). */
const monthEnd = (year: number, month: number) => new Date(Date.UTC(year, month + 1, 0));

/**
 * The overview's four periods at `now` (UTC), each with the period before: the day before
 * for a day; for this month, last month up to the same day of the month (or its end, when
 * it is shorter); for last month, the month before it.
 */
export function overviewPeriods(now: Date): OverviewPeriod[] {
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  const d = now.getUTCDate();
  const single = (offset: number): DayRange => {
    const at = day(y, m, d + offset);
    return { from: at, to: at };
  };
  const lastMonthEnd = monthEnd(y, m - 1);
  return [
    { period: 'today', ...single(0), previous: single(-1) },
    { period: 'yesterday', ...single(-1), previous: single(-2) },
    {
      period: 'this_month',
      from: day(y, m, 1),
      to: utcDay(now),
      previous: {
        from: day(y, m - 1, 1),
        to: day(y, m - 1, Math.min(d, lastMonthEnd.getUTCDate())),
      },
    },
    {
      period: 'last_month',
      from: day(y, m - 1, 1),
      to: utcDay(lastMonthEnd),
      previous: { from: day(y, m - 2, 1), to: utcDay(monthEnd(y, m - 2)) },
    },
  ];
}
