import { startTcpProxy } from '@test/support/tcp-proxy';
import { startTestApp } from '@test/support/test-app';
import { testDatabaseKind } from '@test/support/test-database';
import { testRedisUrl } from '@test/support/test-redis';

interface Health {
  status: string;
  info: Record<string, { status: string; message?: string }>;
  error: Record<string, unknown>;
}

async function readiness(baseUrl: string): Promise<{ code: number; body: Health }> {
  const response = await fetch(`${baseUrl}/health/ready`);
  return { code: response.status, body: (await response.json()) as Health };
}

async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > 20_000) throw new Error(`${what}: not within 20 s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe(`readiness with REDIS_URL (${testDatabaseKind()})`, () => {
  it('checks Redis: up while it answers, degraded (still 200) while it is gone', async () => {
    const redis = new URL(testRedisUrl());
    const proxy = await startTcpProxy({ host: redis.hostname, port: Number(redis.port || 6379) });
    const t = await startTestApp({ REDIS_URL: proxy.route(testRedisUrl()) });
    try {
      const healthy = await readiness(t.baseUrl);
      expect(healthy.code).toBe(200);
      expect(healthy.body.status).toBe('ok');
      expect(healthy.body.info.redis.status).toBe('up');

      await proxy.down();
      await eventually(
        async () => (await readiness(t.baseUrl)).body.status === 'degraded',
        'readiness degraded',
      );
      const degraded = await readiness(t.baseUrl);
      // Still ready: without Redis the instance limits rates by itself and keeps serving.
      expect(degraded.code).toBe(200);
      expect(degraded.body.info.redis.status).toBe('degraded');
      expect(degraded.body.info.redis.message).toEqual(expect.any(String));
      expect(degraded.body.error).toEqual({});

      await proxy.up();
      await eventually(
        async () => (await readiness(t.baseUrl)).body.status === 'ok',
        'readiness ok again',
      );
    } finally {
      await t.close();
      await proxy.close();
    }
  }, 60_000);
});
