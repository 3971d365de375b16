/** UTC calendar day of an instant, `YYYY-MM-DD`: the unit of budgets and reports. */
export const utcDay = (at: Date): string => at.toISOString().slice(0, 10);

/**
 * An instant as a DATETIME(3) literal in UTC (`YYYY-MM-DD HH:MM:SS.mmm`), for hand-written
 * SQL: better-sqlite3 cannot bind a Date, and MySQL reads this form as UTC with timezone 'Z'.
 */
export const sqlDatetime = (at: Date): string => at.toISOString().replace('T', ' ').slice(0, 23);
