import type { DataSourceOptions } from 'typeorm';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DatabaseConfig } from '@/config/app-config';
import { MIGRATIONS } from '../../migrations';
import { ENTITIES } from './entities';

/** TypeORM options shared by the app and `ormconfig.ts` (the CLI's DataSource). */
export function buildDataSourceOptions(database: DatabaseConfig): DataSourceOptions {
  const common = {
    entities: ENTITIES,
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
        db.pragma('busy_timeout = 5000');
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
    extra: { connectionLimit: 10 },
  };
}
