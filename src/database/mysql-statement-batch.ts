import { format, type Pool, type PoolConnection } from 'mysql2/promise';
import { createPoolWithDeadlines, type DatabaseDeadlines } from './mysql-deadlines';
import type { Decided, Read, ReadAll, Statement } from './statements';

/**
 * Runs a few write statements as one transaction in ONE round trip to MySQL/MariaDB:
 * `START TRANSACTION; …; COMMIT` sent as a single multi-statement query.
 *
 * Why: the impression writer's transaction is four statements; through the shared pool each
 * is a round trip whose answer then waits its turn on an event loop busy serving requests,
 * so a batch took ~7 ms instead of the database's ~1-2 ms, and every ad waited that long.
 *
 * Multi-statement queries are switched on only for this small pool of its own. Its callers
 * pass fixed statement texts with `?` placeholders, which mysql2 fills in escaped, never
 * text built from input. Used through StatementTransactions (sql.ts), which retries.
 *
 * A transaction that must read before it decides (the click recorder's: locking reads, then
 * the charges) takes a connection for itself (`transactionWith`): `START TRANSACTION` goes
 * with its first reads, each batch of reads is one round trip, and its writes go with the
 * `COMMIT` in one more, so its locks wait on no round trip but the reads' own.
 */
export class MysqlStatementBatch {
  private readonly pool: Pool;

  constructor(url: string, deadlines: DatabaseDeadlines, connections = 4) {
    this.pool = createPoolWithDeadlines(
      {
        uri: url,
        connectionLimit: connections,
        multipleStatements: true,
        // As TypeORM's own connections: UTC, and every character a conversation may hold.
        timezone: 'Z',
        charset: 'UTF8MB4_UNICODE_CI',
        // Reads answer as through TypeORM's pool: BIGINT as exact strings.
        supportBigNumbers: true,
        bigNumberStrings: true,
      },
      deadlines,
    ).promise();
  }

  /** Commits the statements together, or none of them: `START TRANSACTION; …; COMMIT` at once. */
  transaction(statements: Statement[]): Promise<void> {
    return this.transactionWith(() => Promise.resolve({ result: undefined, writes: statements }));
  }

  /**
   * One transaction on one connection: `work` reads through `read` (each call one round
   * trip, the first carrying `START TRANSACTION`), then its writes and the `COMMIT` are sent
   * as one query. Rolled back when anything fails, `work` itself included.
   */
  async transactionWith<T>(work: (read: ReadAll) => Promise<Decided<T>>): Promise<T> {
    const connection: PoolConnection = await this.pool.getConnection();
    let started = false;
    /** Sends the statements as one query; each one's result, in order. */
    const send = async (texts: string[]): Promise<unknown[]> => {
      const all = started ? texts : ['START TRANSACTION', ...texts];
      started = true;
      const [results] = await connection.query(all.join(';\n'));
      // One statement answers with its result, several with a list of them.
      const each = all.length > 1 ? (results as unknown[]) : [results];
      return each.slice(all.length - texts.length);
    };
    const read = async <R extends unknown[]>(reads: { [K in keyof R]: Read<R[K]> }) => {
      const list = reads as Read<unknown>[];
      const asked = list.flatMap(({ statement: s }) => (s ? [formatted(s)] : []));
      const rows = asked.length > 0 ? await send(asked) : [];
      let next = 0;
      return list.map((r) => r.from(r.statement ? (rows[next++] as unknown[]) : [])) as R;
    };
    try {
      const { result, writes } = await work(read);
      if (started || writes.length > 0) await send([...writes.map(formatted), 'COMMIT']);
      connection.release();
      return result;
    } catch (error) {
      await rollBack(connection);
      throw error;
    }
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}

const formatted = (s: Statement): string => format(s.sql, s.parameters as never[]);

/**
 * After a failure the transaction may still be open on the connection (a statement failed
 * part-way): rolled back, or the connection dropped (the server then rolls it back).
 */
function rollBack(connection: PoolConnection): Promise<void> {
  return connection.query('ROLLBACK').then(
    () => connection.release(),
    () => connection.destroy(),
  );
}
