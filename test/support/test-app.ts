import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { DestinationStream } from 'pino';
import { DataSource } from 'typeorm';
import { createApp } from '@/app.setup';
import { AppConfig } from '@/config/app-config';
import { Factories } from '../factories';
import { freePort } from './free-port';
import { createTestDatabase, TestDatabase } from './test-database';

export interface TestApp {
  app: NestFastifyApplication;
  config: AppConfig;
  baseUrl: string;
  dataSource: DataSource;
  f: Factories;
  /** Sends a request to the running app over real HTTP. */
  http(path: string, init?: RequestInit): Promise<Response>;
  /** `POST /api/fetch-ads` with the given key (omitted when null) and JSON body. */
  fetchAds(key: string | null, body: unknown): Promise<Response>;
  close(): Promise<void>;
}

/**
 * Boots the real application (the same `createApp` as production) on a fresh database and
 * a real port. `env` overrides environment variables, e.g. `{ RATE_LIMIT_PER_MINUTE: '3' }`.
 * With `options.database` it runs on that database instead (a restart of an earlier app);
 * closing it then leaves the database to its creator (`createTestDatabase()`) to drop.
 * With `options.logDestination` the app's log lines go there instead of stdout.
 */
export async function startTestApp(
  env: Record<string, string> = {},
  options: { database?: TestDatabase; logDestination?: DestinationStream } = {},
): Promise<TestApp> {
  const db: TestDatabase = options.database ?? (await createTestDatabase());
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const config = AppConfig.fromEnvironment({
    NODE_ENV: 'test',
    PORT: String(port),
    BASE_URL: baseUrl,
    DATABASE_URL: db.url,
    CLICK_SIGNING_SECRET: 'test-signing-secret-0123456789abcdef',
    SESSION_SECRET: 'test-session-secret-0123456789abcdef',
    LOG_LEVEL: 'fatal',
    // A suite about logs turns access lines on again, with a destination to read them from.
    ACCESS_LOG: 'false',
    // Suites click right after fetching, all from 127.0.0.1; the invalid-traffic suites pass
    // '' (unset) to run with the production defaults instead.
    CLICK_MIN_SECONDS: '0',
    CLICK_IP_LIMIT_CAMPAIGN_MINUTE: '1000',
    CLICK_IP_LIMIT_PER_HOUR: '1000',
    CLICK_IP_LIMIT_PER_DAY: '1000',
    // Fill counts reach /api/stats when a suite flushes them (FillStatsRecorder.flush) or at
    // close, never in the middle of an assertion because a timer fired.
    FILL_STATS_FLUSH_SECONDS: '3600',
    ...env,
  });
  const app = await createApp(config, { logDestination: options.logDestination });
  await app.listen({ port, host: '127.0.0.1' });
  const http = (path: string, init?: RequestInit) => fetch(`${baseUrl}${path}`, init);
  return {
    app,
    config,
    baseUrl,
    dataSource: app.get(DataSource),
    f: new Factories(app),
    http,
    fetchAds: (key, body) =>
      http('/api/fetch-ads', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(key === null ? {} : { 'service-api-key': key }),
        },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    close: async () => {
      await app.close();
      if (!options.database) await db.drop();
    },
  };
}
