import { getMetadataStorage } from 'class-validator';
import { AppConfig } from './app-config';
import { ConfigError, EnvironmentVariables } from './environment';

/** Every setting checked as an integer, read from its validation decorators. */
const INTEGER_SETTINGS = getMetadataStorage()
  .getTargetValidationMetadatas(EnvironmentVariables, '', true, false)
  .filter((check) => check.name === 'isInt')
  .map((check) => check.propertyName);

const base = { DATABASE_URL: 'sqlite::memory:', NODE_ENV: 'test' };
const load = (env: Record<string, string>) => AppConfig.fromEnvironment({ ...base, ...env });

function startupError(env: Record<string, string>): string {
  try {
    load(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected the configuration to be rejected');
}

describe('AppConfig', () => {
  it('applies the documented defaults', () => {
    const config = load({});
    expect(config).toMatchObject({
      port: 3000,
      baseUrl: 'http://localhost:3000',
      serviceName: 'Adline',
      rateLimitPerMinute: 600,
      clickWindowMs: 24 * 3_600_000,
      conversationMaxChars: 4000,
      retentionDays: 90,
      bodyLimitBytes: 65_536,
      defaultRevenueSharePpm: 700_000,
      shutdownTimeoutMs: 10_000,
      shutdownDelayMs: 0,
    });
    const secret = 'a-test-secret-long-enough-0123456789';
    expect(
      AppConfig.fromEnvironment({
        NODE_ENV: 'test',
        CLICK_SIGNING_SECRET: secret,
        SESSION_SECRET: secret,
      }).database,
    ).toEqual({
      type: 'sqlite',
      file: './data/adline.sqlite',
    });
  });

  it('derives BASE_URL from PORT and reads a mariadb:// URL with the MariaDB dialect', () => {
    const config = load({ PORT: '8080', DATABASE_URL: 'mariadb://u:p@db:3306/adline' });
    expect(config.baseUrl).toBe('http://localhost:8080');
    expect(config.database).toEqual({
      type: 'mysql',
      flavour: 'mariadb',
      url: 'mysql://u:p@db:3306/adline',
      database: 'adline',
    });
  });

  it.each([
    ['PORT', 'abc'],
    ['RATE_LIMIT_PER_MINUTE', '0'],
    ['DATABASE_URL', 'postgres://x/y'],
    ['BASE_URL', 'localhost:3000'],
    ['DEFAULT_REVENUE_SHARE', '1.5'],
    ['IMPRESSION_BATCH_SIZE', '5000'],
    ['CLICK_BATCH_SIZE', '0'],
    ['SHUTDOWN_DELAY_MS', '-1'],
    ['SHUTDOWN_DELAY_MS', '300001'],
    ['NODE_ENV', 'staging'],
  ])('stops start-up with one line naming %s when it is %p', (name, value) => {
    const message = startupError({ [name]: value });
    expect(message.split('\n')).toHaveLength(1);
    expect(message).toMatch(new RegExp(`^Invalid environment variable ${name}: `));
  });

  it('knows the integer settings', () => {
    expect(INTEGER_SETTINGS).toEqual(
      expect.arrayContaining(['PORT', 'RATE_LIMIT_PER_MINUTE', 'SHUTDOWN_DELAY_MS']),
    );
    expect(INTEGER_SETTINGS.length).toBeGreaterThanOrEqual(24);
  });

  it.each(
    INTEGER_SETTINGS.flatMap((name) => ['zero', '1.5', '12abc'].map((value) => [name, value])),
  )('says %s must be a whole number when it is %p', (name, value) => {
    expect(startupError({ [name]: value })).toBe(
      `Invalid environment variable ${name}: must be a whole number (got "${value}")`,
    );
  });

  it('names the bound a whole number is outside of', () => {
    expect(startupError({ RATE_LIMIT_PER_MINUTE: '0' })).toBe(
      'Invalid environment variable RATE_LIMIT_PER_MINUTE: must not be less than 1 (got 0)',
    );
    expect(startupError({ DEFAULT_REVENUE_SHARE: 'most' })).toBe(
      'Invalid environment variable DEFAULT_REVENUE_SHARE: must be a number (got "most")',
    );
  });

  it('reads PAYOUT_THRESHOLD in dollars, 50 when unset', () => {
    expect(load({}).payoutThresholdMicros).toBe(50_000_000);
    expect(load({ PAYOUT_THRESHOLD: '25.50' }).payoutThresholdMicros).toBe(25_500_000);
    expect(startupError({ PAYOUT_THRESHOLD: 'fifty' })).toBe(
      'Invalid environment variable PAYOUT_THRESHOLD: must be an amount such as 50 or 25.50 (got "fifty")',
    );
    expect(startupError({ PAYOUT_THRESHOLD: '10.005' })).toMatch(
      /^Invalid environment variable PAYOUT_THRESHOLD: /,
    );
  });

  it('never prints a rejected URL, which may carry a password', () => {
    const message = startupError({ SMTP_URL: 'mailer:s3cret-pass@mail.example.test' });
    expect(message).toBe(
      'Invalid environment variable SMTP_URL: must be an smtp:// or smtps:// URL',
    );
  });

  it('prints account mail unless SMTP_URL is an smtp URL', () => {
    expect(load({}).smtpUrl).toBeNull();
    expect(load({ SMTP_URL: 'smtp://mail.example.test:587' }).smtpUrl).toBe(
      'smtp://mail.example.test:587',
    );
    expect(startupError({ SMTP_URL: 'mail.example.test' })).toBe(
      'Invalid environment variable SMTP_URL: must be an smtp:// or smtps:// URL',
    );
    expect(load({ BASE_URL: 'https://ads.example.test' }).mailFrom).toBe(
      'Adline <no-reply@ads.example.test>',
    );
  });

  it('reads SHUTDOWN_DELAY_MS in milliseconds', () => {
    expect(load({ SHUTDOWN_DELAY_MS: '5000' }).shutdownDelayMs).toBe(5000);
  });

  it('never prints a rejected secret', () => {
    const message = startupError({ CLICK_SIGNING_SECRET: 'short-secret' });
    expect(message).toContain('CLICK_SIGNING_SECRET');
    expect(message).not.toContain('short-secret');
  });

  it.each([
    ['shorter than 10 characters', 'secret-9c', 'must be at least 10 characters'],
    ['one character repeated', 'zzzzzzzzzzzz', 'must not be one character repeated'],
    ['a common password', 'Password123', 'is one of the most common passwords; choose another'],
  ])('refuses an ADMIN_PASSWORD %s, without printing it', (_label, password, why) => {
    const message = startupError({ ADMIN_EMAIL: 'ops@example.test', ADMIN_PASSWORD: password });
    expect(message).toBe(`Invalid environment variable ADMIN_PASSWORD: ${why}`);
  });

  it('requires CLICK_SIGNING_SECRET and SESSION_SECRET in production', () => {
    expect(startupError({ NODE_ENV: 'production' })).toBe(
      'Invalid environment variable CLICK_SIGNING_SECRET: required in production',
    );
    expect(startupError({ NODE_ENV: 'production', CLICK_SIGNING_SECRET: 'c'.repeat(32) })).toBe(
      'Invalid environment variable SESSION_SECRET: required in production',
    );
  });
});
