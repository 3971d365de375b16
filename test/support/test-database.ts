import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';
import type { DatabaseConfig } from '@/config/app-config';

export interface TestDatabase {
  config: DatabaseConfig;
  /** `DATABASE_URL` form of the same database, for an app configured from the environment. */
  url: string;
  drop(): Promise<void>;
}

/** Which database the e2e suites run on: SQLite unless DATABASE_URL points at MySQL/MariaDB. */
export const testDatabaseKind = (): 'sqlite' | 'mysql' =>
  /^(mysql|mariadb):\/\//.test(process.env.DATABASE_URL ?? '') ? 'mysql' : 'sqlite';

/**
 * A fresh, empty database for one test file: a temporary SQLite file, or a new database on
 * the MySQL server named by DATABASE_URL, dropped again afterwards.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (testDatabaseKind() === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'adline-test-'));
    const file = join(dir, 'adline.sqlite');
    return {
      config: { type: 'sqlite', file },
      url: `sqlite:${file}`,
      drop: () => Promise.resolve(rmSync(dir, { recursive: true, force: true })),
    };
  }
  const given = process.env.DATABASE_URL as string;
  const flavour = given.startsWith('mariadb://') ? 'mariadb' : 'mysql';
  const server = new URL(given.replace(/^mariadb:/, 'mysql:'));
  const name = `adline_test_${randomBytes(6).toString('hex')}`;
  server.pathname = '/';
  const admin = await createConnection(server.toString());
  await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await admin.end();
  const url = new URL(server.toString());
  url.pathname = `/${name}`;
  return {
    config: { type: 'mysql', flavour, url: url.toString(), database: name },
    url: url.toString().replace(/^mysql:/, `${flavour}:`),
    drop: async () => {
      const conn = await createConnection(server.toString());
      await conn.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await conn.end();
    },
  };
}
