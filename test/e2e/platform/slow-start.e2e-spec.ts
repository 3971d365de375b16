import { startTestApp, TestApp } from '@test/support/test-app';

// `npm test` must pass on a slow, busy laptop, where booting the app in a beforeAll once took
// longer than Jest's default 5 s limit for a hook and failed every test of its suite. Here the
// boot is made slower on purpose: 16 s more than it takes, longer than any test may take
// (jest.config.js's testTimeout, 15 s), so only the hooks' own limit lets it through.
const EXTRA_BOOT_MS = 16_000;

describe('a suite whose app takes long to boot', () => {
  let t: TestApp;

  beforeAll(async () => {
    await new Promise((resolve) => setTimeout(resolve, EXTRA_BOOT_MS));
    t = await startTestApp();
  });

  afterAll(() => t?.close());

  it('still runs its tests', async () => {
    const res = await t.http('/health/live');
    expect(res.status).toBe(200);
  });
});
