import { Redis } from 'ioredis';
import { createConnection } from 'mysql2/promise';
import { testRedisUrl } from './test-redis';

/**
 * The servers the e2e suites need must answer, or the run fails at once with a clear
 * message, rather than skipping or timing out test by test.
 */
export default async function globalSetup(): Promise<void> {
  await checkRedis();
  await checkMysql();
}

/** The multi-instance suites share one Redis; they are never skipped. */
async function checkRedis(): Promise<void> {
  const url = testRedisUrl();
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 3000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    throw new Error(
      `The e2e suites need Redis at ${url} (set TEST_REDIS_URL to use another): ${(error as Error).message}`,
      { cause: error },
    );
  } finally {
    redis.disconnect();
  }
}

async function checkMysql(): Promise<void> {
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
