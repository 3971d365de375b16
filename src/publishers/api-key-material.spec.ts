import { createHash } from 'node:crypto';

import {
  API_KEY_PREFIXES,
  generateApiKey,
  hashApiKey,
  looksLikeApiKey,
} from '@/publishers/api-key-material';

const API_KEY_PREFIX = API_KEY_PREFIXES.live;

describe('generateApiKey', () => {
  it.each([
    ['a live key by default', undefined, 'adl_live_'],
    ['a live key', 'live' as const, 'adl_live_'],
    ['a test key', 'test' as const, 'adl_test_'],
  ])('hands out %s, with its prefix and 256 random bits', (_label, kind, prefix) => {
    const { secret } = generateApiKey(kind);
    expect(secret.startsWith(prefix)).toBe(true);
    const random = Buffer.from(secret.slice(prefix.length), 'base64url');
    expect(random).toHaveLength(32);
    expect(random.toString('base64url')).toBe(secret.slice(prefix.length));
  });

  it('never hands out the same key twice', () => {
    const secrets = new Set(Array.from({ length: 1000 }, () => generateApiKey().secret));
    expect(secrets.size).toBe(1000);
  });

  it('shows the first 12 characters of the key in lists', () => {
    const { secret, prefix } = generateApiKey();
    expect(prefix).toHaveLength(12);
    expect(prefix).toMatch(/^adl_live_[A-Za-z0-9_-]{3}$/);
    expect(secret.startsWith(prefix)).toBe(true);
    expect(generateApiKey('test').prefix).toMatch(/^adl_test_[A-Za-z0-9_-]{3}$/);
  });

  it('stores only the lowercase hex SHA-256 of the whole key', () => {
    const { secret, hash } = generateApiKey();
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).toBe(createHash('sha256').update(secret).digest('hex'));
    expect(hash).not.toContain(secret.slice(API_KEY_PREFIX.length));
  });

  it('generates keys of both kinds that pass its own shape check', () => {
    for (let i = 0; i < 100; i += 1) {
      expect(looksLikeApiKey(generateApiKey().secret)).toBe(true);
      expect(looksLikeApiKey(generateApiKey('test').secret)).toBe(true);
    }
  });
});

describe('hashApiKey', () => {
  it('recognises a presented key by the hash stored when it was generated', () => {
    const { secret, hash } = generateApiKey();
    expect(hashApiKey(secret)).toBe(hash);
  });

  it('matches the published SHA-256 test vector', () => {
    expect(hashApiKey('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });

  it('tells apart keys that differ in one character', () => {
    const { secret, hash } = generateApiKey();
    const last = secret.at(-1) === 'A' ? 'B' : 'A';
    expect(hashApiKey(secret.slice(0, -1) + last)).not.toBe(hash);
  });
});

describe('looksLikeApiKey', () => {
  const valid = `${API_KEY_PREFIX}${'a'.repeat(43)}`;

  it('accepts a well-formed live key and a well-formed test key', () => {
    expect(looksLikeApiKey(valid)).toBe(true);
    expect(looksLikeApiKey(valid.replace('adl_live_', 'adl_test_'))).toBe(true);
  });

  it.each([
    ['an empty header', ''],
    ['the prefix alone', API_KEY_PREFIX],
    ['a key one character short', valid.slice(0, -1)],
    ['a key one character long', `${valid}a`],
    ['another mode’s prefix', valid.replace('live', 'prod')],
    ['a test prefix alone', API_KEY_PREFIXES.test],
    ['an upper-case prefix', valid.replace('adl_live_', 'ADL_LIVE_')],
    ['an upper-case test prefix', valid.replace('adl_live_', 'ADL_TEST_')],
    ['base64 padding', `${valid.slice(0, -1)}=`],
    ['standard base64 characters', `${valid.slice(0, -1)}+`],
    ['a trailing newline', `${valid}\n`],
    ['a bearer scheme', `Bearer ${valid}`],
    ['a SQL fragment', `${API_KEY_PREFIX}' OR 1=1 --${'a'.repeat(32)}`],
  ])('refuses %s without any lookup', (_label, value) => {
    expect(looksLikeApiKey(value)).toBe(false);
  });
});
