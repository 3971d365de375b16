import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createApp } from '@/app.setup';
import { AppConfig } from '@/config/app-config';
import type { TestApp } from './test-app';

export interface Instance {
  baseUrl: string;
  fetchAds(key: string, body: unknown): Promise<Response>;
  close(): Promise<void>;
}

/** Another instance of the app on the first one's database, as a second server would run. */
export async function startAnotherInstance(
  first: TestApp,
  env: Record<string, string>,
): Promise<Instance> {
  const database = first.config.database;
  const url =
    database.type === 'sqlite'
      ? `sqlite:${database.file}`
      : database.url.replace(/^mysql:/, `${database.flavour}:`);
  const config = AppConfig.fromEnvironment({
    NODE_ENV: 'test',
    BASE_URL: first.baseUrl,
    DATABASE_URL: url,
    CLICK_SIGNING_SECRET: first.config.clickSigningSecret,
    SESSION_SECRET: first.config.sessionSecret,
    LOG_LEVEL: 'fatal',
    ACCESS_LOG: 'false',
    ...env,
  });
  const app: NestFastifyApplication = await createApp(config);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const baseUrl = await app.getUrl();
  return {
    baseUrl,
    fetchAds: (key, body) =>
      fetch(`${baseUrl}/api/fetch-ads`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'service-api-key': key },
        body: JSON.stringify(body),
      }),
    close: () => app.close(),
  };
}
