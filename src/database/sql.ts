import type { EntityManager } from 'typeorm';

export const isMysql = (manager: EntityManager): boolean =>
  manager.connection.options.type === 'mysql' || manager.connection.options.type === 'mariadb';

/**
 * Errors a transaction may hit under contention and that succeed when simply run again.
 * Not SQLITE_BUSY: it comes only after the busy timeout was waited out (synchronously, the
 * whole process waiting), so running again at once would multiply that stall.
 */
export function isTransient(error: unknown): boolean {
  const e = error as { driverError?: { code?: string; errno?: number }; code?: string } | null;
  const code = e?.driverError?.code ?? e?.code;
  return (
    code === 'ER_LOCK_DEADLOCK' ||
    code === 'ER_LOCK_WAIT_TIMEOUT' ||
    code === 'SQLITE_BUSY_SNAPSHOT'
  );
}

/** Runs `work` in a transaction, retrying a few times when the database reports contention. */
export async function transactionWithRetry<T>(
  manager: EntityManager,
  work: (transaction: EntityManager) => Promise<T>,
  attempts = 5,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await manager.transaction(work);
    } catch (error) {
      if (attempt >= attempts || !isTransient(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5 * attempt));
    }
  }
}
