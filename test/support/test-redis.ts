/** The Redis server of the multi-instance suites: TEST_REDIS_URL, else the local default. */
export const testRedisUrl = (): string => process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';
