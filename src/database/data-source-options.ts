import type { DataSourceOptions, EntitySchema } from 'typeorm';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { AppConfig, DatabaseConfig } from '@/config/app-config';
import { MIGRATIONS } from '../../migrations';
import { type DatabaseDeadlines, mysqlDriverWithDeadlines } from './mysql-deadlines';

/** The defaults of DATABASE_TIMEOUT_MS and DATABASE_QUERY_TIMEOUT_MS. */
const DEFAULT_DEADLINES: DatabaseDeadlines = { acquireMs: 1500, queryMs: 60_000 };

/** The deadlines the configuration sets (DATABASE_TIMEOUT_MS, DATABASE_QUERY_TIMEOUT_MS). */
export const databaseDeadlines = (config: AppConfig): DatabaseDeadlines => ({
  acquireMs: config.databaseTimeoutMs,
  queryMs: config.databaseQueryTimeoutMs,
});

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- TypeORM's own type of an entity list.
export type EntityList = (Function | EntitySchema)[];

/**
 * TypeORM options shared by the app and `ormconfig.ts` (the CLI's DataSource). `entities` is
 * `ENTITIES` from `src/entities.ts`, passed in so that this layer imports no feature module.
 */
export function buildDataSourceOptions(
  database: DatabaseConfig,
  entities: EntityList,
  deadlines: DatabaseDeadlines = DEFAULT_DEADLINES,
): DataSourceOptions {
  const common = {
    entities,
    migrations: MIGRATIONS,
    migrationsRun: false,
    synchronize: false,
    logging: false,
  };
  if (database.type === 'sqlite') {
    if (database.file !== ':memory:') mkdirSync(dirname(database.file), { recursive: true });
    return {
      ...common,
      type: 'better-sqlite3',
      database: database.file,
      // WAL lets readers (reports) run while the impression writer commits.
      prepareDatabase: (db: { pragma(sql: string): unknown }) => {
        db.pragma('journal_mode = WAL');
        db.pragma('synchronous = NORMAL');
        // better-sqlite3 waits for another process's write lock synchronously, holding up
        // every request of this one: wait no longer than a request may, then answer 503.
        db.pragma(`busy_timeout = ${deadlines.acquireMs}`);
        db.pragma('foreign_keys = ON');
      },
    };
  }
  return {
    ...common,
    type: database.flavour,
    url: database.url,
    timezone: 'Z',
    charset: 'utf8mb4_unicode_ci',
    supportBigNumbers: true,
    bigNumberStrings: true,
    connectTimeout: deadlines.acquireMs,
    // mysql2 with a deadline on every wait for a connection and on every statement.
    driver: mysqlDriverWithDeadlines(deadlines),
    extra: { connectionLimit: 10 },
  };
}
