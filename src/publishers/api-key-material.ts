import { createHash, randomBytes } from 'node:crypto';
import type { ApiKeyKind } from './entities/api-key.entity';

/**
 * API keys: 256 random bits behind a readable prefix. The prefix lets people (and secret
 * scanners) recognise a leaked key at a glance, and tells a live key from a test key the
 * way Stripe's do; only the SHA-256 hash is stored, which is enough for a key this random —
 * there is nothing to brute-force, so no slow hash is needed and the fetch-ads hot path can
 * look a key up by its hash in one indexed read.
 */

export const API_KEY_PREFIXES: Readonly<Record<ApiKeyKind, string>> = {
  live: 'adl_live_',
  test: 'adl_test_',
};

const SECRET_BYTES = 32;
/** Characters shown in key lists: the prefix plus three random characters. */
const DISPLAY_PREFIX_LENGTH = 12;
/** base64url of 32 bytes without padding. */
const ENCODED_LENGTH = Math.ceil((SECRET_BYTES * 8) / 6);

const API_KEY_SHAPE = new RegExp(
  `^(?:${Object.values(API_KEY_PREFIXES).join('|')})[A-Za-z0-9_-]{${ENCODED_LENGTH}}$`,
);

export interface GeneratedApiKey {
  /** The whole key; shown to its owner once, never stored. */
  secret: string;
  /** The first 12 characters, e.g. `adl_live_Ab3`, stored to tell keys apart in lists. */
  prefix: string;
  /** Lowercase hex SHA-256 of the secret; the only form of the key kept in the database. */
  hash: string;
}

export function generateApiKey(kind: ApiKeyKind = 'live'): GeneratedApiKey {
  const secret = API_KEY_PREFIXES[kind] + randomBytes(SECRET_BYTES).toString('base64url');
  return {
    secret,
    prefix: secret.slice(0, DISPLAY_PREFIX_LENGTH),
    hash: hashApiKey(secret),
  };
}

export function hashApiKey(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/**
 * A cheap shape check (a live or a test key) so that garbage headers are refused without a
 * database lookup. The kind a key has is the one stored with its hash, not its prefix.
 */
export function looksLikeApiKey(value: string): boolean {
  return API_KEY_SHAPE.test(value);
}
