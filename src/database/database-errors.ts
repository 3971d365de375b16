import { Logger } from '@nestjs/common';

/**
 * The database did not answer in time or cannot be reached: the request may succeed later,
 * so it is answered `503 database_unavailable` with `Retry-After`, never `500`.
 */
export class DatabaseUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'DatabaseUnavailableError';
  }
}

/** Driver codes that mean "no answer from the database", not "the statement is wrong". */
const UNAVAILABLE_CODES = new Set([
  // mysql2: connection refused, reset or lost, connect timeout, server gone or overloaded
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'PROTOCOL_ENQUEUE_AFTER_FATAL_ERROR',
  'PROTOCOL_ENQUEUE_AFTER_QUIT',
  'ER_CON_COUNT_ERROR',
  'ER_SERVER_SHUTDOWN',
  // SQLite: another process held the write lock for longer than the busy timeout
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
]);

/** Messages of mysql2 errors that carry no code. */
const UNAVAILABLE_MESSAGES = [
  'Pool is closed.',
  'Queue limit reached.',
  "Can't add new command when connection is in closed state",
];

/** Whether an error (or the driver error TypeORM wraps) means the database is unreachable. */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (error instanceof DatabaseUnavailableError) return true;
  const e = error as { driverError?: unknown; code?: unknown; message?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  if (e.driverError && isDatabaseUnavailable(e.driverError)) return true;
  if (typeof e.code === 'string' && UNAVAILABLE_CODES.has(e.code)) return true;
  return typeof e.message === 'string' && UNAVAILABLE_MESSAGES.includes(e.message);
}

/**
 * Settles like `work`, or rejects with DatabaseUnavailableError after `ms`. The work itself
 * is not cancelled: it settles later on its own (its outcome is the caller's to decide).
 */
export function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new DatabaseUnavailableError(`${what}: no answer within ${ms} ms`)),
      ms,
    );
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

/** How long a person following a tracking link waits for its click to commit. */
export const CLICK_REDIRECT_WAIT_MS = 1500;

const lateWrites = new Logger('Database');

/**
 * Waits for `work` at most `ms`, then resolves `undefined` and lets it go on alone: a write
 * that the database holds up keeps its place in its batch while the caller moves on. If it
 * then finally fails, nobody is left to tell, so it is logged as lost.
 */
export function waitAtMost<T>(work: Promise<T>, ms: number, what: string): Promise<T | undefined> {
  let late = false;
  work.catch((error: unknown) => {
    if (late) lateWrites.error(`${what} lost: ${String(error)}`);
  });
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => {
      late = true;
      lateWrites.warn(`${what} not committed within ${ms} ms; going on without waiting`);
      resolve(undefined);
    }, ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
