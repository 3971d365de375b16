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
 * The state after charging `bidMicros` on UTC `day`, or null when the budgets do not allow
 * it (never a partial charge: a campaign never spends past either budget).
 */
export function charge(state: BudgetState, bidMicros: number, day: string): BudgetState | null {
  if (!canPay(state, bidMicros, day)) return null;
  return {
    ...state,
    spentMicros: state.spentMicros + bidMicros,
    spentTodayMicros: spentOn(state, day) + bidMicros,
    spentDay: day,
  };
}
