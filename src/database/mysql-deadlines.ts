import * as mysql from 'mysql2';
import type { Pool, PoolConnection, PoolOptions } from 'mysql2';
import { DatabaseUnavailableError } from './database-errors';

export interface DatabaseDeadlines {
  /** Longest wait for a pooled connection, opening a new one included. */
  acquireMs: number;
  /**
   * Longest a statement may go unanswered before its connection is dropped (the server then
   * rolls its transaction back); 0 waits as long as the server takes. A backstop for a
   * server that stopped answering: requests give up much sooner (DATABASE_TIMEOUT_MS).
   */
  queryMs: number;
}

type Callback = (error: Error | null, ...results: unknown[]) => void;
type QueryFn = (...args: unknown[]) => unknown;

/**
 * A mysql2 pool whose waits all end. mysql2 itself bounds only the opening of a connection
 * (`connectTimeout`): a caller waiting for a pooled connection waits for ever, and its own
 * `timeout` per query starts only once the statement reaches the server and leaves the
 * connection busy with it, so the next statement on that connection hangs instead.
 */
export function createPoolWithDeadlines(options: PoolOptions, deadlines: DatabaseDeadlines): Pool {
  const pool = mysql.createPool({
    ...options,
    connectTimeout: options.connectTimeout ?? deadlines.acquireMs,
  });
  const guarded = new WeakSet<PoolConnection>();
  const getConnection = pool.getConnection.bind(pool);
  pool.getConnection = ((callback: (error: Error | null, connection?: PoolConnection) => void) => {
    let waiting = true;
    const timer = setTimeout(() => {
      waiting = false;
      callback(new DatabaseUnavailableError(unanswered('no free connection', deadlines.acquireMs)));
    }, deadlines.acquireMs);
    getConnection((error, connection) => {
      if (!waiting) {
        // The caller gave up; a connection that comes later goes back to the pool.
        connection?.release();
        return;
      }
      waiting = false;
      clearTimeout(timer);
      if (connection && !guarded.has(connection)) {
        guarded.add(connection);
        guardQueries(connection, deadlines);
      }
      callback(error, connection);
    });
  }) as Pool['getConnection'];
  return pool;
}

/** TypeORM's `driver` option: mysql2 as it is, its pools made by createPoolWithDeadlines. */
export interface MysqlDriverWithDeadlines {
  createPool(options: PoolOptions): Pool;
  /** Migrations are done: from now on statements have their deadline. */
  armStatementDeadlines(): void;
}

/**
 * Statements have no deadline until `armStatementDeadlines()`: the migrations run at start-up
 * (or by the CLI, which never arms it) may rightly take minutes on a large table.
 */
export function mysqlDriverWithDeadlines(deadlines: DatabaseDeadlines): MysqlDriverWithDeadlines {
  const live: DatabaseDeadlines = { acquireMs: deadlines.acquireMs, queryMs: 0 };
  return {
    ...mysql,
    createPool: (options: PoolOptions) => createPoolWithDeadlines(options, live),
    armStatementDeadlines: () => {
      live.queryMs = deadlines.queryMs;
    },
  };
}

/** A statement unanswered after `ms` fails, and its connection is dropped, never reused. */
function guardQueries(connection: PoolConnection, deadlines: DatabaseDeadlines): void {
  const query = connection.query.bind(connection) as QueryFn;
  (connection as unknown as { query: QueryFn }).query = (...args: unknown[]) => {
    const ms = deadlines.queryMs;
    if (ms <= 0) return query(...args);
    const last = args.length - 1;
    // Called with a callback (TypeORM, promise wrappers), or with a command that carries one
    // (the pool's own `query()`).
    const command = args[0] as { onResult?: Callback } | null;
    if (typeof args[last] === 'function') {
      args[last] = withStatementDeadline(connection, ms, args[last] as Callback);
    } else if (typeof command?.onResult === 'function') {
      command.onResult = withStatementDeadline(connection, ms, command.onResult);
    }
    return query(...args);
  };
}

function withStatementDeadline(
  connection: PoolConnection,
  ms: number,
  callback: Callback,
): Callback {
  let waiting = true;
  const timer = setTimeout(() => {
    waiting = false;
    connection.destroy();
    callback(new DatabaseUnavailableError(unanswered('statement', ms)));
  }, ms);
  return (error, ...results) => {
    if (!waiting) return;
    waiting = false;
    clearTimeout(timer);
    callback(error, ...results);
  };
}

const unanswered = (what: string, ms: number) =>
  `MySQL did not answer within ${ms} ms (${what}); the database is stalled or unreachable`;
