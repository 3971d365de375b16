import { DataSource, type EntityManager } from 'typeorm';

/** The SQL dialects the app speaks: MySQL/MariaDB, or SQLite. */
export type Dialect = 'mysql' | 'sqlite';

/** The dialect of a connection; repositories ask it, no caller passes it. */
export function dialectOf(source: DataSource | EntityManager): Dialect {
  const { type } = source instanceof DataSource ? source.options : source.connection.options;
  return type === 'mysql' || type === 'mariadb' ? 'mysql' : 'sqlite';
}
