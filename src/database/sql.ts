import type { DataSource, EntityManager } from 'typeorm';
import { dialectOf } from './dialect';
import type { DatabaseDeadlines } from './mysql-deadlines';
import { MysqlStatementBatch } from './mysql-statement-batch';
import type { Decided, Read, ReadAll, Statement } from './statements';

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

/**
 * Runs a whole transaction again, a few times, when the database reports contention: the one
 * retry loop of every transaction. (GroupCommit's retries are another matter: a database that
 * did not answer at all, whose commit may have landed unseen.)
 */
async function retryTransient<T>(transaction: () => Promise<T>, attempts: number): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction();
    } catch (error) {
      if (attempt >= attempts || !isTransient(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5 * attempt));
    }
  }
}

/** Runs `work` in a transaction, retrying a few times when the database reports contention. */
export function transactionWithRetry<T>(
  manager: EntityManager,
  work: (transaction: EntityManager) => Promise<T>,
  attempts = 5,
): Promise<T> {
  return retryTransient(() => manager.transaction(work), attempts);
}

/** The reads' answers, one after the other in the TypeORM transaction of `manager`. */
export function readIn(manager: EntityManager): ReadAll {
  return async <T extends unknown[]>(reads: { [K in keyof T]: Read<T[K]> }) => {
    const answers: unknown[] = [];
    for (const read of reads as Read<unknown>[]) {
      const { statement } = read;
      answers.push(
        read.from(statement ? await manager.query(statement.sql, statement.parameters) : []),
      );
    }
    return answers as T;
  };
}

/**
 * Commits statements as one transaction, or none of them, retrying on contention like
 * `transactionWithRetry`. On MySQL/MariaDB the writes and the COMMIT go in ONE round trip,
 * through a small multi-statement pool of its own (see MysqlStatementBatch); on SQLite it
 * runs in a TypeORM transaction, whose statements cost no network round trip anyway. Whoever
 * creates it closes it, after its last commit.
 */
export class StatementTransactions {
  private readonly batch: MysqlStatementBatch | null;

  constructor(
    private readonly dataSource: DataSource,
    deadlines: DatabaseDeadlines,
  ) {
    this.batch = null;
    if (dialectOf(dataSource) !== 'mysql') return;
    const { url } = dataSource.options as { url?: string };
    if (!url) throw new Error('the MySQL statement batch needs the DataSource configured by url');
    this.batch = new MysqlStatementBatch(url, deadlines);
  }

  commit(statements: Statement[], attempts = 5): Promise<void> {
    const { batch } = this;
    if (batch) return retryTransient(() => batch.transaction(statements), attempts);
    return transactionWithRetry(
      this.dataSource.manager,
      async (manager) => {
        for (const { sql, parameters } of statements) await manager.query(sql, parameters);
      },
      attempts,
    );
  }

  /**
   * Runs `work` in one transaction, run again whole on contention: `work` asks its reads
   * (locking ones too) through `read`, decides, and returns the writes; they and the COMMIT
   * follow at once. On MySQL each `read` call is one round trip and the writes with the
   * COMMIT one more, all on one connection, so the locks are held across as few round trips
   * as the reads need; on SQLite the same statements run in a TypeORM transaction.
   */
  run<T>(work: (read: ReadAll) => Promise<Decided<T>>, attempts = 5): Promise<T> {
    const { batch } = this;
    if (batch) return retryTransient(() => batch.transactionWith(work), attempts);
    return transactionWithRetry(
      this.dataSource.manager,
      async (manager) => {
        const { result, writes } = await work(readIn(manager));
        for (const { sql, parameters } of writes) await manager.query(sql, parameters);
        return result;
      },
      attempts,
    );
  }

  async close(): Promise<void> {
    await this.batch?.close();
  }
}
