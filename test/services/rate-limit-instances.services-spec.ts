import { Redis } from 'ioredis';
import { createHash, randomBytes, randomInt } from 'node:crypto';
import { request } from 'node:http';
import { createServer, type Server, type Socket, connect } from 'node:net';
import { rateLimitKeyHasher } from '@/http/rate-limit.guard';
import { RedisThrottlerStorage } from '@/http/redis-throttler-storage';
import type { AppConfig } from '@/config/app-config';
import { ask } from '@test/support/ads';
import { expectProblem } from '@test/support/problem';
import { type Instance, startAnotherInstance } from '@test/support/another-instance';
import { startTestApp, TestApp } from '@test/support/test-app';
import { testDatabaseKind } from '@test/support/test-database';
import { testRedisUrl } from '@test/support/test-redis';

/** Required: global-setup fails the run when this Redis does not answer. */
const redisUrl = testRedisUrl();

/**
 * Per-IP limits count every caller on 127.0.0.1 together, in the Redis that other suites
 * share; calls from an address of our own (all of 127/8 is loopback) count apart.
 */
const ownLoopbackAddress = () =>
  `127.${randomInt(1, 255)}.${randomInt(1, 255)}.${randomInt(2, 255)}`;

/** An HTTP call from `localAddress`, which `fetch` cannot choose. */
function callFrom(
  localAddress: string,
  url: string,
  init: { method?: string; json?: unknown } = {},
): Promise<Response> {
  const body = init.json === undefined ? undefined : JSON.stringify(init.json);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      {
        method: init.method ?? 'GET',
        localAddress,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
      },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(incoming.headers)) {
            if (typeof value === 'string') headers.set(name, value);
          }
          resolve(
            new Response(Buffer.concat(chunks), { status: incoming.statusCode ?? 0, headers }),
          );
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** How the rate limits name a caller in their counters: a keyed hash, never in clear. */
const hidden = (config: AppConfig, tracker: string) => rateLimitKeyHasher(config)(tracker);
/** How the rate-limit guard names a key's caller (it never stores the key itself). */
const trackerOf = (config: AppConfig, key: string) =>
  hidden(config, `key:${createHash('sha256').update(key).digest('hex')}`);

/** The rate-limit keys whose names contain one of `markers`: this suite's, no others. */
async function ownKeys(redis: Redis, markers: Iterable<string>): Promise<string[]> {
  const wanted = [...markers];
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', 'adline:rl:*', 'COUNT', 1000);
    found.push(...keys.filter((key) => wanted.some((marker) => key.includes(marker))));
    cursor = next;
  } while (cursor !== '0');
  return found;
}

async function deleteOwnKeys(redis: Redis, markers: Iterable<string>): Promise<void> {
  const keys = await ownKeys(redis, markers);
  if (keys.length > 0) await redis.del(...keys);
}

describe('RedisThrottlerStorage on a real Redis', () => {
  const MINUTE = 60_000;
  // A prefix of this run's own: nothing else reads or writes these keys.
  const prefix = `adline:rl:test-${randomBytes(6).toString('hex')}:`;
  let redis: Redis;
  let storage: RedisThrottlerStorage;
  const hit = (key: string, limit = 3) => storage.increment(key, MINUTE, limit, MINUTE, 'default');
  /** Stores a counter as the script keeps it, its window started `ago` ms before Redis' now. */
  const seed = async (key: string, ago: number, current: number) => {
    const [seconds, micros] = await redis.time();
    const now = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
    await redis.hset(`${prefix}default:${key}`, {
      start: now - ago,
      current,
      previous: 0,
      blocked_until: 0,
    });
  };

  beforeAll(async () => {
    redis = new Redis(redisUrl);
    storage = new RedisThrottlerStorage(redisUrl, { keyPrefix: prefix });
    await storage.onModuleInit();
  });
  afterAll(async () => {
    storage.onApplicationShutdown();
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  it('allows the limit, then blocks for the block duration, with times in seconds', async () => {
    for (let i = 1; i <= 3; i++) {
      expect(await hit('a')).toMatchObject({
        totalHits: i,
        isBlocked: false,
        timeToBlockExpire: 0,
      });
    }
    const blocked = await hit('a');
    expect(blocked).toMatchObject({ totalHits: 4, isBlocked: true, timeToBlockExpire: 60 });
    expect(blocked.timeToExpire).toBeGreaterThan(0);
    expect(blocked.timeToExpire).toBeLessThanOrEqual(60);
    expect(await hit('a')).toMatchObject({ totalHits: 4, isBlocked: true });
    expect((await hit('b')).isBlocked).toBe(false);
  });

  it("weighs the previous window's hits by how much of it still overlaps the last minute", async () => {
    // Half-way through the next window, half of the 3 earlier hits (rounded down) still count.
    await seed('weighted', MINUTE + MINUTE / 2, 3);
    expect((await hit('weighted', 4)).totalHits).toBe(2);
    expect((await hit('weighted', 4)).totalHits).toBe(3);
    expect((await hit('weighted', 4)).totalHits).toBe(4);
    expect((await hit('weighted', 4)).isBlocked).toBe(true);
  });

  it('forgets hits older than two windows, and lets Redis expire an idle key', async () => {
    await seed('old', 2 * MINUTE + 1, 3);
    expect((await hit('old')).totalHits).toBe(1);
    const ttl = await redis.pttl(`${prefix}default:old`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(2 * MINUTE);
  });
});

describe(`rate limits without Redis (${testDatabaseKind()})`, () => {
  let first: TestApp;
  let second: Instance;
  const env = { RATE_LIMIT_PER_MINUTE: '5' };

  beforeAll(async () => {
    first = await startTestApp(env);
    await first.f.campaign({ keywords: 'kite' });
    second = await startAnotherInstance(first, env);
  });
  afterAll(async () => {
    await second.close();
    await first.close();
  });

  it('are counted by each instance alone: twice the limit split across two passes', async () => {
    const { key } = await first.f.publisherWithKey();
    const instances = [first, second];
    for (let i = 0; i < 10; i++) {
      expect((await instances[i % 2].fetchAds(key, ask('kite'))).status).toBe(200);
    }
  });
});

describe(`rate limits shared by instances through Redis (${testDatabaseKind()})`, () => {
  let first: TestApp;
  let second: Instance;
  let redis: Redis;
  /** Parts of the key names this suite creates: only those are deleted afterwards. */
  const markers = new Set<string>();
  const env = {
    REDIS_URL: redisUrl,
    RATE_LIMIT_PER_MINUTE: '5',
    CLICK_RATE_LIMIT_PER_MINUTE: '3',
    LOGIN_RATE_LIMIT_PER_MINUTE: '2',
  };

  beforeAll(async () => {
    redis = new Redis(redisUrl);
    first = await startTestApp(env);
    await first.f.campaign({ keywords: 'kite' });
    second = await startAnotherInstance(first, env);
  });
  afterAll(async () => {
    await second.close();
    await first.close();
    await deleteOwnKeys(redis, markers);
    await redis.quit();
  });

  it('answers 429 with Retry-After once one key has made more calls than the limit on the two instances together', async () => {
    const { key } = await first.f.publisherWithKey();
    const other = await first.f.publisherWithKey();
    markers.add(trackerOf(first.config, key)).add(trackerOf(first.config, other.key));
    const instances = [first, second];
    // Five calls, alternating: each instance alone has seen at most three.
    for (let i = 0; i < 5; i++) {
      expect((await instances[i % 2].fetchAds(key, ask('kite'))).status).toBe(200);
    }
    for (const instance of instances) {
      const limited = await instance.fetchAds(key, ask('kite'));
      await expectProblem(limited, 429, 'rate_limited');
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect((await second.fetchAds(other.key, ask('kite'))).status).toBe(200);

    // The counters expire by themselves once idle.
    const [counter] = await ownKeys(redis, [trackerOf(first.config, key)]);
    expect(await redis.pttl(counter)).toBeGreaterThan(0);
  });

  it('answers 429 once one client has followed tracking links more often than the limit on the two instances together', async () => {
    const campaign = await first.f.campaign({ keywords: 'yoyo' });
    const ip = ownLoopbackAddress();
    markers.add(hidden(first.config, ip));
    const path = `/api/campaign_click?campaign_id=${campaign.id}&model_id=m`;
    const baseUrls = [first.baseUrl, second.baseUrl];
    for (let i = 0; i < 3; i++) {
      expect((await callFrom(ip, `${baseUrls[i % 2]}${path}`)).status).toBe(302);
    }
    const limited = await callFrom(ip, `${second.baseUrl}${path}`);
    await expectProblem(limited, 429, 'rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Redis keys are storage: the counter names the client by a keyed hash only.
    expect(await ownKeys(redis, [hidden(first.config, ip)])).not.toHaveLength(0);
    expect(await ownKeys(redis, [ip])).toEqual([]);
  });

  it('answers 429 once sign-in attempts on the two instances together exceed the limit', async () => {
    const ip = ownLoopbackAddress();
    const email = `guess-${randomBytes(6).toString('hex')}@example.test`;
    markers.add(hidden(first.config, ip)).add(hidden(first.config, email));
    const attempt = (baseUrl: string) =>
      callFrom(ip, `${baseUrl}/api/auth/login`, {
        method: 'POST',
        json: { email, password: 'a wrong password' },
      });
    await expectProblem(await attempt(first.baseUrl), 401, 'invalid_credentials');
    await expectProblem(await attempt(second.baseUrl), 401, 'invalid_credentials');
    const limited = await attempt(first.baseUrl);
    await expectProblem(limited, 429, 'rate_limited');
    expect(await ownKeys(redis, [hidden(first.config, ip)])).not.toHaveLength(0);
    expect(await ownKeys(redis, [ip, email])).toEqual([]);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

/** A TCP relay to Redis that the test can cut and restore, to play a Redis outage. */
class CuttableRelay {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  private port = 0;

  constructor(private readonly target: URL) {}

  /** `target` as reached through the relay. */
  get url(): string {
    const url = new URL(this.target.toString());
    url.hostname = '127.0.0.1';
    url.port = String(this.port);
    return url.toString();
  }

  /** Listens (again on the same port, once it has one) and relays each connection. */
  async open(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(Number(this.target.port || 6379), this.target.hostname);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  /** Drops every connection and refuses new ones, as a Redis that went away would. */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  }
}

describe(`rate limits when Redis goes away (${testDatabaseKind()})`, () => {
  let t: TestApp;
  let redis: Redis;
  let relay: CuttableRelay;
  const markers = new Set<string>();

  beforeAll(async () => {
    redis = new Redis(redisUrl);
    relay = new CuttableRelay(new URL(redisUrl));
    await relay.open();
    t = await startTestApp({ REDIS_URL: relay.url, RATE_LIMIT_PER_MINUTE: '5' });
    await t.f.campaign({ keywords: 'kite' });
  });
  afterAll(async () => {
    await t.close();
    await relay.cut();
    await deleteOwnKeys(redis, markers);
    await redis.quit();
  });

  it('keeps serving ads, limited in memory, and shares the counters again once Redis is back', async () => {
    const { key, model } = await t.f.publisherWithKey();
    markers.add(trackerOf(t.config, key));
    expect((await t.fetchAds(key, ask('kite'))).status).toBe(200);
    expect(await ownKeys(redis, [trackerOf(t.config, key)])).toHaveLength(1);

    await relay.cut();
    // The instance's own memory counts from zero: five more calls, then the limit.
    for (let i = 0; i < 5; i++) expect((await t.fetchAds(key, ask('kite'))).status).toBe(200);
    await expectProblem(await t.fetchAds(key, ask('kite')), 429, 'rate_limited');

    // Back on the same address: ioredis reconnects by itself, and new keys count in Redis.
    await relay.open();
    let counted = false;
    for (let attempt = 0; attempt < 100 && !counted; attempt++) {
      const fresh = await t.f.apiKey(model.id);
      markers.add(trackerOf(t.config, fresh));
      expect((await t.fetchAds(fresh, ask('kite'))).status).toBe(200);
      counted = (await ownKeys(redis, [trackerOf(t.config, fresh)])).length === 1;
      if (!counted) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(counted).toBe(true);
  }, 60_000);
});
