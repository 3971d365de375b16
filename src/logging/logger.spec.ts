import { AppConfig } from '@/config/app-config';
import { createLogger, wantsPrettyOutput } from './logger';

const env = {
  NODE_ENV: 'test',
  DATABASE_URL: 'sqlite::memory:',
  CLICK_SIGNING_SECRET: 'test-signing-secret-0123456789abcdef',
  SESSION_SECRET: 'test-session-secret-0123456789abcdef',
};

describe('the logger', () => {
  it('is pretty only on a development instance writing to a terminal', () => {
    expect(wantsPrettyOutput('development', true)).toBe(true);
    expect(wantsPrettyOutput('development', false)).toBe(false);
    expect(wantsPrettyOutput('development', undefined)).toBe(false);
    expect(wantsPrettyOutput('production', true)).toBe(false);
    expect(wantsPrettyOutput('test', true)).toBe(false);
  });

  it.each([
    ['fatal', 'fatal'],
    ['error', 'error'],
    ['warn', 'warn'],
    ['log', 'info'],
    ['info', 'info'],
    ['debug', 'debug'],
    ['verbose', 'trace'],
    ['trace', 'trace'],
  ])('reads LOG_LEVEL=%s as pino level %s', (given, level) => {
    const config = AppConfig.fromEnvironment({ ...env, LOG_LEVEL: given });
    expect(config.logLevel).toBe(level);
    expect(createLogger(config, { write: () => undefined }).level).toBe(level);
  });

  it('writes warn by default, and refuses an unknown level', () => {
    expect(AppConfig.fromEnvironment(env).logLevel).toBe('warn');
    expect(() => AppConfig.fromEnvironment({ ...env, LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL/);
  });

  it('writes one JSON line with the level by name and redacts secrets under their names', () => {
    let out = '';
    const logger = createLogger(AppConfig.fromEnvironment(env), { write: (s) => (out += s) });
    logger.warn(
      {
        req: { headers: { authorization: 'Bearer t0ken', cookie: 's=c00kie' } },
        body: { password: 'pa55word', conversation: 'my words' },
        err: { message: 'insert failed', sql: 'INSERT … pa55word', parameters: ['pa55word'] },
      },
      'something',
    );
    const line = JSON.parse(out) as Record<string, unknown>;
    expect(line).toMatchObject({ level: 'warn', msg: 'something', body: '[redacted]' });
    expect(out).not.toMatch(/t0ken|c00kie|pa55word|my words/);
    expect(out).toContain('insert failed');
  });
});
