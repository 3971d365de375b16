import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { RedisFrequencyCounter } from '@/ads/frequency-counter';
import { expectProblem } from '@test/support/problem';
import { type Instance, startAnotherInstance } from '@test/support/another-instance';
import { startTestApp, TestApp } from '@test/support/test-app';
import { testDatabaseKind } from '@test/support/test-database';
import { testRedisUrl } from '@test/support/test-redis';

/** Required: global-setup fails the run when this Redis does not answer. */
const redisUrl = testRedisUrl();

describe(`the frequency cap counts through Redis, across instances (${testDatabaseKind()})`, () => {
  let first: TestApp;
  let second: Instance;
  let key: string;
  const keyword = `capped${Date.now()}`;

  beforeAll(async () => {
    first = await startTestApp({ REDIS_URL: redisUrl, RATE_LIMIT_PER_MINUTE: '100000' });
    await first.f.campaign({ keywords: keyword });
    const me = await first.f.signedInPublisher();
    const controls = { frequency_cap: { max_ads: 2, per_minutes: 60 } };
    expect((await me.api('PUT', `/api/models/${me.model.id}/controls`, controls)).status).toBe(200);
    key = me.key;
    second = await startAnotherInstance(first, {
      REDIS_URL: redisUrl,
      RATE_LIMIT_PER_MINUTE: '100000',
    });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it("one session's ads on both instances add up to the cap", async () => {
    const body = { conversation: 'Hi', context_keywords: keyword, session_id: randomUUID() };
    expect((await first.fetchAds(key, body)).status).toBe(200);
    expect((await second.fetchAds(key, body)).status).toBe(200);
    const over = await first.fetchAds(key, body);
    expect(await expectProblem(over, 404, 'no_matching_ad')).toMatchObject({
      reason: 'frequency_cap',
    });
    expect((await second.fetchAds(key, { ...body, session_id: randomUUID() })).status).toBe(200);
  });
});

describe('RedisFrequencyCounter', () => {
  it('counts in a window that starts with the first ad and expires with it', async () => {
    const counter = new RedisFrequencyCounter(redisUrl, `adline:test:fcap:${randomUUID()}:`);
    await counter.connect();
    try {
      expect(await counter.add('s', 1, 300)).toBe(0);
      expect(await counter.add('s', 2, 300)).toBe(1);
      expect(await counter.add('s', 1, 300)).toBe(3);
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(await counter.add('s', 1, 300)).toBe(0);
    } finally {
      counter.disconnect();
    }
  });

  it('counts in memory while Redis does not answer, and says so once', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    // Nothing listens on port 1.
    const counter = new RedisFrequencyCounter('redis://127.0.0.1:1');
    await counter.connect();
    try {
      expect(await counter.add('s', 1, 60_000)).toBe(0);
      expect(await counter.add('s', 1, 60_000)).toBe(1);
      const outages = warn.mock.calls.filter(([message]) =>
        String(message).includes('frequency caps'),
      );
      expect(outages).toHaveLength(1);
    } finally {
      counter.disconnect();
      warn.mockRestore();
    }
  });
});
