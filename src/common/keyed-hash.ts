import { createHmac } from 'node:crypto';

/**
 * A keyed hash (HMAC-SHA256, hex) for values that must be compared but never stored in
 * clear, such as client IPs. The key is derived from an app secret and a purpose label, so
 * each use gets its own key and an IPv4 address cannot be found by hashing all 2³² of them
 * without the secret. The same secret gives the same hashes on every instance.
 */
export function keyedHasher(secret: string, purpose: string): (value: string) => string {
  const key = createHmac('sha256', secret).update(`adline:${purpose}`).digest();
  return (value) => createHmac('sha256', key).update(value).digest('hex');
}
