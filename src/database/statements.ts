import type { Dialect } from './dialect';

/** One statement's text, with `?` placeholders, and its parameters in order. */
export interface Statement {
  sql: string;
  parameters: unknown[];
}

/** A table's columns in statement order, each with how to read its value off a row. */
export type ColumnMap<Row> = Readonly<Record<string, (row: Row) => unknown>>;

/** What an upsert does with a row whose key is already stored: adds these counters to it. */
export interface AddOnConflict {
  /** The columns of the unique key that identifies a stored row. */
  key: readonly string[];
  counters: readonly string[];
}

/**
 * Multi-row writes to one table, built from one column→value map: the column list and the
 * parameters come from the same entries, so they cannot drift apart. Hand-written statements
 * rather than TypeORM's insert builder, which costs more CPU than the database's own work
 * on the hot paths (a tenth of a click's CPU).
 */
export class TableRows<Row> {
  /** The column names, in statement order. */
  readonly columns: readonly string[];
  private readonly values: readonly ((row: Row) => unknown)[];
  private readonly rowPlaceholders: string;

  constructor(
    readonly table: string,
    columns: ColumnMap<Row>,
  ) {
    this.columns = Object.keys(columns);
    this.values = Object.values(columns);
    this.rowPlaceholders = `(${this.columns.map(() => '?').join(', ')})`;
  }

  /** One INSERT of all the rows. */
  insert(rows: readonly Row[]): Statement {
    if (rows.length === 0) throw new Error(`no rows to insert into ${this.table}`);
    const parameters: unknown[] = [];
    for (const row of rows) for (const value of this.values) parameters.push(value(row));
    return {
      sql: `INSERT INTO ${this.table} (${this.columns.join(', ')}) VALUES ${rows.map(() => this.rowPlaceholders).join(', ')}`,
      parameters,
    };
  }

  /** One INSERT of all the rows; a row whose key is stored adds its counters to it instead. */
  insertAdding(rows: readonly Row[], dialect: Dialect, conflict: AddOnConflict): Statement {
    const insert = this.insert(rows);
    const { key, counters } = conflict;
    // The two dialects spell "add to the existing row" differently; the effect is the same.
    const onConflict =
      dialect === 'mysql'
        ? `ON DUPLICATE KEY UPDATE ${counters.map((c) => `${c} = ${c} + VALUES(${c})`).join(', ')}`
        : `ON CONFLICT (${key.join(', ')}) DO UPDATE SET ${counters.map((c) => `${c} = ${c} + excluded.${c}`).join(', ')}`;
    return { sql: `${insert.sql} ${onConflict}`, parameters: insert.parameters };
  }
}

/**
 * One UPDATE that gives each row, by id, its own values: `column = CASE id WHEN ? THEN ? …
 * END` per column of `perRow` (read off the id), then the `same` columns, one value for all.
 * One statement for a batch, where a round trip per row made batches slow.
 */
export function updateByIds(
  table: string,
  ids: readonly string[],
  perRow: ColumnMap<string>,
  same: Readonly<Record<string, unknown>> = {},
): Statement {
  if (ids.length === 0) throw new Error(`no rows to update in ${table}`);
  const cases = `CASE id ${ids.map(() => 'WHEN ? THEN ?').join(' ')} END`;
  const assignments = [
    ...Object.keys(perRow).map((column) => `${column} = ${cases}`),
    ...Object.keys(same).map((column) => `${column} = ?`),
  ];
  return {
    sql: `UPDATE ${table} SET ${assignments.join(', ')} WHERE id IN (${ids.map(() => '?').join(', ')})`,
    parameters: [
      ...Object.values(perRow).flatMap((value) => ids.flatMap((id) => [id, value(id)])),
      ...Object.values(same),
      ...ids,
    ],
  };
}

/**
 * A read for a transaction whose statements its owner sends (StatementTransactions.run):
 * the statement, or null when there is nothing to ask, and what its rows mean. Repositories
 * build reads as they build writes; the transaction's owner decides which go together.
 */
export interface Read<T> {
  statement: Statement | null;
  from(rows: unknown[]): T;
}

/** A read with nothing to ask: its answer is known (no ids, no rows). */
export const known = <T>(answer: T): Read<T> => ({ statement: null, from: () => answer });

/**
 * Sends reads in the caller's transaction; their answers, in order. On MySQL one call is one
 * round trip, whatever the number of reads (see MysqlStatementBatch.transactionWith).
 */
export type ReadAll = <T extends unknown[]>(reads: { [K in keyof T]: Read<T[K]> }) => Promise<T>;

/** What a transaction's work decided: its result, and the writes to commit with it. */
export interface Decided<T> {
  result: T;
  writes: Statement[];
}
