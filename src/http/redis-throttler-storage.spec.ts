import { Logger } from '@nestjs/common';
import { createServer } from 'node:net';
import { RedisThrottlerStorage } from './redis-throttler-storage';

const MINUTE = 60_000;

/** A local port on which nothing listens: connecting to it is refused at once. */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe('RedisThrottlerStorage without a reachable Redis', () => {
  let storage: RedisThrottlerStorage;
  let warn: jest.SpyInstance;

  beforeEach(async () => {
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    storage = new RedisThrottlerStorage(`redis://127.0.0.1:${await closedPort()}`);
    await storage.onModuleInit();
  });
  afterEach(() => {
    storage.onApplicationShutdown();
    warn.mockRestore();
  });

  it('still starts, counts in memory with the same limits, and warns once', async () => {
    const hit = () => storage.increment('k', MINUTE, 3, MINUTE, 'default');
    for (let i = 1; i <= 3; i++) {
      expect(await hit()).toMatchObject({ totalHits: i, isBlocked: false, timeToBlockExpire: 0 });
    }
    expect(await hit()).toMatchObject({ isBlocked: true, timeToBlockExpire: 60 });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0][0]).toContain('Redis does not answer for rate limits');
  });
});
