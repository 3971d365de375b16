import { createConnection } from 'mysql2/promise';

/**
 * When the e2e suites are pointed at MySQL/MariaDB, fail at once with a clear message if
 * the server is unreachable, rather than skipping or timing out test by test.
 */
export default async function globalSetup(): Promise<void> {
  const url = process.env.DATABASE_URL;
  if (!url || !/^(mysql|mariadb):\/\//.test(url)) return;
  const server = new URL(url.replace(/^mariadb:/, 'mysql:'));
  server.pathname = '/';
  try {
    const connection = await createConnection(server.toString());
    await connection.end();
  } catch (error) {
    throw new Error(
      `DATABASE_URL names a MySQL server that does not answer: ${(error as Error).message}`,
      { cause: error },
    );
  }
}
