import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import type { DatabaseConfig } from '@/config/app-config';
import { ConfigError } from '@/config/environment';

/** The part of better-sqlite3 used here (the package ships no types; TypeORM loads it too). */
interface SqliteFile {
  pragma(sql: string): unknown;
  exec(sql: string): void;
  close(): void;
}
const Sqlite = createRequire(__filename)('better-sqlite3') as new (
  file: string,
  options: { timeout: number },
) => SqliteFile;

const FIX =
  'make it writable by this user, or point DATABASE_URL at a file in a writable directory';

/**
 * Before the app starts: can this process create and write the SQLite database? A directory
 * or file it may not write is the operator's to fix, so it is told in one line at once,
 * instead of a stack trace or TypeORM's retries. A lock held by another process is not a
 * configuration error and is left to the app's own busy timeout.
 */
export function checkSqliteWritable(database: DatabaseConfig, busyTimeoutMs: number): void {
  if (database.type !== 'sqlite' || database.file === ':memory:') return;
  const file = database.file;
  try {
    mkdirSync(dirname(file), { recursive: true });
  } catch (error) {
    throw asStartupConfigError(error) ?? error;
  }
  let db: SqliteFile | null = null;
  try {
    db = new Sqlite(file, { timeout: busyTimeoutMs });
    // WAL needs its -wal and -shm files beside the database; the created table is rolled back.
    db.pragma('journal_mode = WAL');
    db.exec('BEGIN IMMEDIATE; CREATE TABLE adline_write_check (x); ROLLBACK');
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'SQLITE_BUSY') return;
    throw new ConfigError(
      `Invalid environment variable DATABASE_URL: cannot write the SQLite database ${file} (${String(code)}: ${(error as Error).message}); ${FIX}`,
    );
  } finally {
    db?.close();
  }
}

/** A file-system error at start-up (creating the database's directory) as one line, if it is one. */
export function asStartupConfigError(error: unknown): ConfigError | null {
  const { code, path, syscall } = (error ?? {}) as {
    code?: unknown;
    path?: unknown;
    syscall?: unknown;
  };
  if (typeof path !== 'string' || typeof code !== 'string') return null;
  if (!['EACCES', 'EPERM', 'EROFS', 'ENOTDIR', 'EEXIST', 'ENOSPC'].includes(code)) return null;
  const problem =
    code === 'EEXIST' || code === 'ENOTDIR'
      ? `${path} is a file, not a directory (${code})`
      : `cannot ${syscall === 'mkdir' ? 'create the directory' : 'write'} ${path} (${code})`;
  return new ConfigError(`Invalid environment variable DATABASE_URL: ${problem}; ${FIX}`);
}
