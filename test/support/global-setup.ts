import { Redis } from 'ioredis';
import { createConnection } from 'mysql2/promise';
import { testRedisUrl } from './test-redis';

/**
 * The e2e suites need no server of their own; when DATABASE_URL names a MySQL server it
 * must answer, or the run fails at once with a clear message rather than test by test.
 */
export default async function globalSetup(): Promise<void> {
  await checkMysql();
}

/** The multi-instance suites share one Redis; they fail, never skip, when it is missing. */
export async function checkRedis(): Promise<void> {
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
      `The multi-instance suites (npm run test:services) need Redis at ${url} (set TEST_REDIS_URL to use another): ${(error as Error).message}`,
      { cause: error },
    );
  } finally {
    redis.disconnect();
  }
}

export async function checkMysql(): Promise<void> {
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
