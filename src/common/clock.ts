import { Injectable } from '@nestjs/common';

/**
 * The time of the money path: when an ad was served, followed and charged. One injectable
 * source, so a test can move it (across UTC midnight, say) through the real HTTP pipeline.
 */
@Injectable()
export class Clock {
  now(): Date {
    return new Date();
  }
}

/** UTC calendar day of an instant, `YYYY-MM-DD`: the unit of budgets and reports. */
export const utcDay = (at: Date): string => at.toISOString().slice(0, 10);

/**
 * An instant as a DATETIME(3) literal in UTC (`YYYY-MM-DD HH:MM:SS.mmm`), for hand-written
 * SQL: better-sqlite3 cannot bind a Date, and MySQL reads this form as UTC with timezone 'Z'.
 */
export const sqlDatetime = (at: Date): string => at.toISOString().replace('T', ' ').slice(0, 23);
