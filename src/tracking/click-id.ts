import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Click ids: the token the landing URL carries (`?adl_click=…`) and an advertiser sends
 * back with a conversion. It names one click, unguessably: the click's UUID (16 bytes) and
 * 16 bytes of HMAC-SHA256 over it with the click signing secret, as 43 characters of
 * base64url. Verifying gives the click's id back, or null for anything forged or altered.
 */

const UUID_BYTES = 16;
const MAC_BYTES = 16;
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;
const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const MIN_SECRET_BYTES = 16;

/** Separates these MACs from the link signatures made with the same secret. */
const DOMAIN = 'adline/click-id/v1\n';

export class ClickIdSigner {
  private readonly secret: Buffer;

  constructor(secret: string | Buffer) {
    this.secret = typeof secret === 'string' ? Buffer.from(secret, 'utf8') : Buffer.from(secret);
    if (this.secret.length < MIN_SECRET_BYTES) {
      throw new RangeError(`The click signing secret must be at least ${MIN_SECRET_BYTES} bytes`);
    }
  }

  /** The token of a click (its id is a UUID, as `newId()` makes them). */
  sign(clickId: string): string {
    const id = Buffer.from(clickId.replaceAll('-', ''), 'hex');
    return Buffer.concat([id, this.mac(id)]).toString('base64url');
  }

  /** The click's id, or null when the token is not one this secret made. */
  verify(token: unknown): string | null {
    if (typeof token !== 'string' || !TOKEN_SHAPE.test(token)) return null;
    const bytes = Buffer.from(token, 'base64url');
    const id = bytes.subarray(0, UUID_BYTES);
    const expected = this.mac(id);
    // Re-encoding compares the one canonical spelling: base64url's last character has spare bits.
    if (!timingSafeEqual(bytes.subarray(UUID_BYTES), expected)) return null;
    if (Buffer.concat([id, expected]).toString('base64url') !== token) return null;
    const hex = id.toString('hex');
    const uuid = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    return UUID_SHAPE.test(uuid) ? uuid : null;
  }

  private mac(id: Buffer): Buffer {
    return createHmac('sha256', this.secret)
      .update(DOMAIN)
      .update(id)
      .digest()
      .subarray(0, MAC_BYTES);
  }
}

/**
 * The URL with `name=value` in its query: an existing `name` parameter is replaced, every
 * other parameter and the fragment are kept byte for byte (no parsing and re-serialising,
 * which would re-encode the advertiser's own parameters). `value` must be URL-safe.
 */
export function withQueryParameter(url: string, name: string, value: string): string {
  const hashAt = url.indexOf('#');
  const beforeHash = hashAt < 0 ? url : url.slice(0, hashAt);
  const fragment = hashAt < 0 ? '' : url.slice(hashAt);
  const queryAt = beforeHash.indexOf('?');
  const path = queryAt < 0 ? beforeHash : beforeHash.slice(0, queryAt);
  const query = queryAt < 0 ? '' : beforeHash.slice(queryAt + 1);
  const kept = query === '' ? [] : query.split('&').filter((pair) => keyOf(pair) !== name);
  return `${path}?${[...kept, `${name}=${value}`].join('&')}${fragment}`;
}

function keyOf(pair: string): string {
  const equals = pair.indexOf('=');
  const key = equals < 0 ? pair : pair.slice(0, equals);
  try {
    return decodeURIComponent(key.replaceAll('+', ' '));
  } catch {
    return key;
  }
}
