/** What a campaign has spent and may spend, in micros; the daily figures are per UTC day. */
export interface BudgetState {
  totalMicros: number | null;
  dailyMicros: number | null;
  spentMicros: number;
  /** Spent on `spentDay`; another day's figure counts as nothing today. */
  spentTodayMicros: number;
  spentDay: string | null;
}

/** A campaign's budget columns as raw SQL returns them: BIGINT as a string (mysql2) or a number (SQLite). */
export interface BudgetColumns {
  budget_total_micros: string | number | null;
  budget_daily_micros: string | number | null;
  spent_micros: string | number;
  spent_today_micros: string | number;
  spent_day: string | null;
}

export function budgetFromRow(row: BudgetColumns): BudgetState {
  const micros = (value: string | number | null) => (value === null ? null : Number(value));
  return {
    totalMicros: micros(row.budget_total_micros),
    dailyMicros: micros(row.budget_daily_micros),
    spentMicros: Number(row.spent_micros),
    spentTodayMicros: Number(row.spent_today_micros),
    spentDay: row.spent_day,
  };
}

const spentOn = (state: BudgetState, day: string): number =>
  state.spentDay === day ? state.spentTodayMicros : 0;

/** Whether the campaign can pay `bidMicros` on UTC `day` within its total and daily budgets. */
export function canPay(state: BudgetState, bidMicros: number, day: string): boolean {
  if (state.totalMicros !== null && state.spentMicros + bidMicros > state.totalMicros) {
    return false;
  }
  if (state.dailyMicros !== null && spentOn(state, day) + bidMicros > state.dailyMicros) {
    return false;
  }
  return true;
}

/**
 * The budget day a click of UTC `day` is charged to. Concurrent click batches can commit out
 * of order around midnight: a batch holding a click from 23:59:59 may commit after one
 * holding a click from 00:00:01, when the state already counts the new day. The state keeps
 * only the latest day's spend, so charging the earlier day would start it again from zero
 * and forget the new day's spend, letting the new day pass its cap. Such a late click is
 * counted against the later day instead: the state never goes back a day, and no budget day
 * ever spends past its cap (the earlier day's own spend is no longer known to check against).
 */
function chargedDay(state: BudgetState, day: string): string {
  return state.spentDay !== null && state.spentDay > day ? state.spentDay : day;
}

/**
 * The state after charging `bidMicros` for a click on UTC `day` (see `chargedDay`), or null
 * when the budgets do not allow it (never a partial charge: a campaign never spends past
 * either budget).
 */
export function charge(state: BudgetState, bidMicros: number, day: string): BudgetState | null {
  const budgetDay = chargedDay(state, day);
  if (!canPay(state, bidMicros, budgetDay)) return null;
  return {
    ...state,
    spentMicros: state.spentMicros + bidMicros,
    spentTodayMicros: spentOn(state, budgetDay) + bidMicros,
    spentDay: budgetDay,
  };
}
