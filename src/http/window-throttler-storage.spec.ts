import { WindowThrottlerStorage } from './window-throttler-storage';

const MINUTE = 60_000;

describe('WindowThrottlerStorage', () => {
  let now: number;
  let storage: WindowThrottlerStorage;
  const hit = (key = 'k', limit = 3) => storage.increment(key, MINUTE, limit, MINUTE, 'default');

  beforeEach(() => {
    now = 1_000_000;
    storage = new WindowThrottlerStorage(() => now);
  });

  it('allows the limit and blocks the next hit for the block duration', async () => {
    for (let i = 0; i < 3; i++) expect((await hit()).isBlocked).toBe(false);
    const blocked = await hit();
    expect(blocked.isBlocked).toBe(true);
    expect(blocked.timeToBlockExpire).toBe(60);
    now += 30_000;
    expect((await hit()).timeToBlockExpire).toBe(30);
  });

  it('counts keys separately', async () => {
    for (let i = 0; i < 3; i++) await hit('a');
    expect((await hit('a')).isBlocked).toBe(true);
    expect((await hit('b')).isBlocked).toBe(false);
  });

  it("weighs the previous window's hits by how much of it still overlaps the last minute", async () => {
    for (let i = 0; i < 3; i++) await hit('k', 4);
    // Half-way through the next window, half of the 3 earlier hits (rounded down) still count.
    now += MINUTE + MINUTE / 2;
    expect((await hit('k', 4)).totalHits).toBe(2);
    expect((await hit('k', 4)).totalHits).toBe(3);
    expect((await hit('k', 4)).totalHits).toBe(4);
    expect((await hit('k', 4)).isBlocked).toBe(true);
  });

  it('forgets hits older than two windows', async () => {
    for (let i = 0; i < 3; i++) await hit();
    now += 2 * MINUTE + 1;
    expect((await hit()).totalHits).toBe(1);
  });
});
