import { Logger } from '@nestjs/common';
import { RedisBroadcast } from '@/redis/redis-broadcast';
import { ask } from '@test/support/ads';
import { type Instance, startAnotherInstance } from '@test/support/another-instance';
import { startTestApp, TestApp } from '@test/support/test-app';
import { testDatabaseKind } from '@test/support/test-database';
import { startTcpProxy, type TcpProxy } from '@test/support/tcp-proxy';
import { testRedisUrl } from '@test/support/test-redis';
import type { SignedInPublisher } from '@test/factories';

/** Required: global-setup fails the run when this Redis does not answer. */
const redisUrl = testRedisUrl();
const KEYWORDS = 'credential broadcast';
// A failing poll waits 3 s, and the cache lifetime below takes 6 s to run out.
jest.setTimeout(30_000);

/** What fetch-ads answers for this key: 200, or the problem's code. */
async function answer(instance: Instance | TestApp, key: string): Promise<string | number> {
  const response = await instance.fetchAds(key, ask(KEYWORDS));
  if (response.status === 200) return 200;
  const body = (await response.json()) as { code?: string };
  return body.code ?? response.status;
}

/** Polls until `instance` answers `expected`; how long that took, or null after `ms`. */
async function msUntil(
  instance: Instance,
  key: string,
  expected: string | number,
  ms: number,
): Promise<number | null> {
  const start = Date.now();
  for (;;) {
    if ((await answer(instance, key)) === expected) return Date.now() - start;
    if (Date.now() - start > ms) return null;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Two instances on one database; both serve the campaign the tests ask for. */
async function startTwo(env: Record<string, string>): Promise<[TestApp, Instance]> {
  const first = await startTestApp(env);
  await first.f.campaign({ keywords: KEYWORDS });
  // Started after the campaign exists, so its index holds it without any announcement.
  const second = await startAnotherInstance(first, env);
  return [first, second];
}

/** A publisher whose key both instances have resolved (and so cached). */
async function publisherServedByBoth(first: TestApp, second: Instance): Promise<SignedInPublisher> {
  const publisher = await first.f.signedInPublisher();
  expect(await answer(second, publisher.key)).toBe(200);
  expect(await answer(first, publisher.key)).toBe(200);
  return publisher;
}

describe(`key, model and publisher changes reach other instances through Redis (${testDatabaseKind()})`, () => {
  let first: TestApp;
  let second: Instance;
  // Resolutions cached for an hour: whatever the second instance forgets, Redis told it.
  const env = { REDIS_URL: redisUrl, API_KEY_CACHE_SECONDS: '3600' };

  beforeAll(async () => {
    [first, second] = await startTwo(env);
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('a key revoked on one instance answers invalid_api_key on the other within 2 s', async () => {
    const publisher = await publisherServedByBoth(first, second);
    const revoked = await publisher.api(
      'DELETE',
      `/api/models/${publisher.model.id}/keys/${publisher.keyId}`,
    );
    expect(revoked.status).toBe(204);
    expect(await answer(first, publisher.key)).toBe('invalid_api_key');
    const ms = await msUntil(second, publisher.key, 'invalid_api_key', 3000);
    expect(ms).not.toBeNull();
    expect(ms).toBeLessThan(2000);
  });

  it('a model deactivated by its publisher, then reactivated, is followed within 2 s', async () => {
    const publisher = await publisherServedByBoth(first, second);
    const path = `/api/models/${publisher.model.id}`;

    expect((await publisher.api('PATCH', path, { status: 'deactivated' })).status).toBe(200);
    const off = await msUntil(second, publisher.key, 'model_inactive', 3000);
    expect(off).not.toBeNull();
    expect(off).toBeLessThan(2000);

    expect((await publisher.api('PATCH', path, { status: 'active' })).status).toBe(200);
    const on = await msUntil(second, publisher.key, 200, 3000);
    expect(on).not.toBeNull();
    expect(on).toBeLessThan(2000);
  });

  it("an operator's model deactivation and a publisher suspension are followed within 2 s", async () => {
    const operator = await first.f.signedInAdmin();
    const deactivated = await publisherServedByBoth(first, second);
    const suspended = await publisherServedByBoth(first, second);

    const modelPath = `/api/admin/models/${deactivated.model.id}`;
    expect((await operator.api('PATCH', modelPath, { status: 'deactivated' })).status).toBe(200);
    const modelOff = await msUntil(second, deactivated.key, 'model_inactive', 3000);
    expect(modelOff).not.toBeNull();
    expect(modelOff).toBeLessThan(2000);

    const publisherPath = `/api/admin/publishers/${suspended.publisher.id}`;
    expect((await operator.api('PATCH', publisherPath, { status: 'suspended' })).status).toBe(200);
    const publisherOff = await msUntil(second, suspended.key, 'model_inactive', 3000);
    expect(publisherOff).not.toBeNull();
    expect(publisherOff).toBeLessThan(2000);

    expect((await operator.api('PATCH', publisherPath, { status: 'active' })).status).toBe(200);
    const publisherOn = await msUntil(second, suspended.key, 200, 3000);
    expect(publisherOn).not.toBeNull();
    expect(publisherOn).toBeLessThan(2000);
  });
});

describe(`without Redis, the cache lifetime bounds what other instances serve (${testDatabaseKind()})`, () => {
  let first: TestApp;
  let second: Instance;
  const env = { API_KEY_CACHE_SECONDS: '6' };

  beforeAll(async () => {
    [first, second] = await startTwo(env);
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('the instance that revoked answers at once; the other after API_KEY_CACHE_SECONDS', async () => {
    const before = Date.now();
    const publisher = await publisherServedByBoth(first, second);
    const revoked = await publisher.api(
      'DELETE',
      `/api/models/${publisher.model.id}/keys/${publisher.keyId}`,
    );
    expect(revoked.status).toBe(204);
    expect(await answer(first, publisher.key)).toBe('invalid_api_key');
    // The other instance has not heard of it: its cached resolution still lets the key in…
    expect(await answer(second, publisher.key)).toBe(200);
    // …until that entry expires, never later.
    expect(await msUntil(second, publisher.key, 'invalid_api_key', 15_000)).not.toBeNull();
    expect(Date.now() - before).toBeGreaterThanOrEqual(6000);
  });
});

describe(`an instance cut off from Redis catches up when it is back (${testDatabaseKind()})`, () => {
  let first: TestApp;
  let second: Instance;
  let proxy: TcpProxy;
  const env = { REDIS_URL: redisUrl, API_KEY_CACHE_SECONDS: '3600' };

  beforeAll(async () => {
    const redis = new URL(redisUrl);
    proxy = await startTcpProxy({ host: redis.hostname, port: Number(redis.port || 6379) });
    first = await startTestApp(env);
    await first.f.campaign({ keywords: KEYWORDS });
    second = await startAnotherInstance(first, { ...env, REDIS_URL: proxy.route(redisUrl) });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
    await proxy?.close();
  });

  it('a revoke announced while it was away is applied once it has reconnected', async () => {
    const publisher = await publisherServedByBoth(first, second);
    await proxy.down();
    const revoked = await publisher.api(
      'DELETE',
      `/api/models/${publisher.model.id}/keys/${publisher.keyId}`,
    );
    expect(revoked.status).toBe(204);
    // The announcement is lost on the way to the second instance: it serves the key…
    expect(await answer(second, publisher.key)).toBe(200);
    await proxy.up();
    // …until its subscription is back, when it forgets every cached resolution.
    expect(await msUntil(second, publisher.key, 'invalid_api_key', 15_000)).not.toBeNull();
  });
});

describe('a Redis outage is logged once, and its end', () => {
  it('however many reconnection attempts fail in between', async () => {
    const redis = new URL(redisUrl);
    const proxy = await startTcpProxy({ host: redis.hostname, port: Number(redis.port || 6379) });
    const logger = new Logger('test');
    const warn = jest.spyOn(logger, 'warn').mockImplementation(() => undefined);
    const log = jest.spyOn(logger, 'log').mockImplementation(() => undefined);
    const reconnected = jest.fn();
    const broadcast = await RedisBroadcast.open(
      proxy.route(redisUrl),
      'adline:test:outage',
      { onMessage: () => undefined, onReconnect: reconnected },
      logger,
    );
    try {
      await proxy.down();
      // ioredis retries every 50 ms at first, then less often: several attempts fail here.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await expect(broadcast.publish({ probe: 1 })).rejects.toThrow();
      expect(warn).toHaveBeenCalledTimes(1);
      await proxy.up();
      const until = Date.now() + 15_000;
      while (log.mock.calls.length === 0 && Date.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(log).toHaveBeenCalledTimes(1);
      expect(String(log.mock.calls[0][0])).toContain('connected again');
      expect(reconnected).toHaveBeenCalled();
      expect(warn).toHaveBeenCalledTimes(1);
    } finally {
      broadcast.close();
      await proxy.close();
    }
  });
});
