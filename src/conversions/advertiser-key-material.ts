import { createHash, randomBytes } from 'node:crypto';

/**
 * Advertisers' keys for the conversions API: 256 random bits behind `adl_adv_`, as the
 * publishers' keys are made (src/publishers/api-key-material.ts); only the SHA-256 hash is
 * stored, which is enough for a key this random.
 */
export const ADVERTISER_KEY_PREFIX = 'adl_adv_';
const SECRET_BYTES = 32;
const DISPLAY_PREFIX_LENGTH = 12;
const KEY_SHAPE = /^adl_adv_[A-Za-z0-9_-]{43}$/;

export function generateAdvertiserKey(): { secret: string; prefix: string; hash: string } {
  const secret = ADVERTISER_KEY_PREFIX + randomBytes(SECRET_BYTES).toString('base64url');
  return {
    secret,
    prefix: secret.slice(0, DISPLAY_PREFIX_LENGTH),
    hash: hashAdvertiserKey(secret),
  };
}

export const hashAdvertiserKey = (secret: string): string =>
  createHash('sha256').update(secret, 'utf8').digest('hex');

/** A shape check, so that garbage is refused without a database read. */
export const looksLikeAdvertiserKey = (value: string): boolean => KEY_SHAPE.test(value);
