import { createHash, randomBytes } from 'node:crypto';

/**
 * The API keys Adline hands out (publishers' live and test keys, advertisers' conversion
 * keys): 256 random bits behind a readable prefix. The prefix lets people (and secret
 * scanners) recognise a leaked key at a glance, the way Stripe's do; only the SHA-256 hash
 * is stored, which is enough for a key this random — there is nothing to brute-force, so no
 * slow hash is needed and a key is looked up by its hash in one indexed read.
 */
export interface GeneratedKey {
  /** The whole key; shown to its owner once, never stored. */
  secret: string;
  /** The first 12 characters, e.g. `adl_live_Ab3`, stored to tell keys apart in lists. */
  prefix: string;
  /** Lowercase hex SHA-256 of the secret; the only form of the key kept in the database. */
  hash: string;
}

const SECRET_BYTES = 32;
/** Characters shown in key lists: the prefix plus a few random characters. */
const DISPLAY_PREFIX_LENGTH = 12;
/** base64url of 32 bytes without padding. */
const ENCODED_LENGTH = Math.ceil((SECRET_BYTES * 8) / 6);

export function generateKey(prefix: string): GeneratedKey {
  const secret = prefix + randomBytes(SECRET_BYTES).toString('base64url');
  return { secret, prefix: secret.slice(0, DISPLAY_PREFIX_LENGTH), hash: hashKey(secret) };
}

export function hashKey(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** The shape of a key with one of `prefixes`: garbage is refused without a database read. */
export function keyShape(prefixes: readonly string[]): RegExp {
  return new RegExp(`^(?:${prefixes.join('|')})[A-Za-z0-9_-]{${ENCODED_LENGTH}}$`);
}
