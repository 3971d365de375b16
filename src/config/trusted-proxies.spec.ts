import { AppConfig } from './app-config';
import { ConfigError } from './environment';
import { fastifyTrustProxy, parseTrustedProxies } from './trusted-proxies';

const load = (env: Record<string, string>) =>
  AppConfig.fromEnvironment({ DATABASE_URL: 'sqlite::memory:', NODE_ENV: 'test', ...env });

describe('TRUSTED_PROXIES', () => {
  it('trusts no proxy by default', () => {
    expect(load({}).trustedProxies).toBe(false);
    expect(load({ TRUSTED_PROXIES: '' }).trustedProxies).toBe(false);
  });

  it('reads a hop count', () => {
    expect(parseTrustedProxies('2')).toBe(2);
    const trust = fastifyTrustProxy(2) as (address: string, hop: number) => boolean;
    expect([0, 1, 2].map((hop) => trust('10.0.0.1', hop))).toEqual([true, true, false]);
  });

  it('reads a list of addresses and CIDR ranges', () => {
    expect(load({ TRUSTED_PROXIES: '10.0.0.0/8, 192.168.1.7,fd00::/8' }).trustedProxies).toEqual([
      '10.0.0.0/8',
      '192.168.1.7',
      'fd00::/8',
    ]);
  });

  it.each(['10.0.0.0/33', 'proxy.internal', '0', '1.2.3', '10.0.0.1/8/8', 'fd00::/129'])(
    'refuses %s with one line naming the variable',
    (value) => {
      expect(() => load({ TRUSTED_PROXIES: value })).toThrow(ConfigError);
      expect(() => load({ TRUSTED_PROXIES: value })).toThrow(
        /^Invalid environment variable TRUSTED_PROXIES: .+$/,
      );
    },
  );
});

describe('click rules', () => {
  it('default to a one-second minimum and 1 a minute per campaign, 10 an hour, 25 a day per IP', () => {
    expect(load({})).toMatchObject({
      clickMinMs: 1000,
      clickIpLimits: { perCampaignMinute: 1, perHour: 10, perDay: 25 },
    });
  });

  it('allow CLICK_MIN_SECONDS=0 but no limit of 0', () => {
    expect(load({ CLICK_MIN_SECONDS: '0' }).clickMinMs).toBe(0);
    expect(() => load({ CLICK_IP_LIMIT_PER_HOUR: '0' })).toThrow(/CLICK_IP_LIMIT_PER_HOUR/);
  });
});
