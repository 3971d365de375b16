import { AppConfig } from './app-config';
import { ConfigError } from './environment';

const SECRETS = {
  CLICK_SIGNING_SECRET: 'a-test-secret-long-enough-0123456789',
  SESSION_SECRET: 'a-test-secret-long-enough-0123456789',
};
const load = (env: Record<string, string>) =>
  AppConfig.fromEnvironment({ DATABASE_URL: 'sqlite::memory:', ...SECRETS, ...env });

describe('HOST', () => {
  it('listens on every interface in production and only on this machine otherwise', () => {
    expect(load({ NODE_ENV: 'production' }).host).toBe('0.0.0.0');
    expect(load({ NODE_ENV: 'development' }).host).toBe('127.0.0.1');
    expect(load({ NODE_ENV: 'test' }).host).toBe('127.0.0.1');
    expect(load({}).host).toBe('127.0.0.1');
  });

  it.each(['0.0.0.0', '::', '::1', '10.0.0.5', 'localhost', 'app.internal'])(
    'accepts %s',
    (host) => {
      expect(load({ HOST: host }).host).toBe(host);
    },
  );

  it.each(['http://0.0.0.0', '10.0.0.5:3000', 'two words', '-bad-'])('refuses %s', (host) => {
    expect(() => load({ HOST: host })).toThrow(ConfigError);
    expect(() => load({ HOST: host })).toThrow(
      `Invalid environment variable HOST: must be an IP address or a host name (got ${JSON.stringify(host)})`,
    );
  });
});
