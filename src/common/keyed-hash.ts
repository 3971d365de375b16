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

/**
 * `hash` remembering its answers for up to `capacity` values, then forgetting them all at
 * once (simpler than an LRU, and a full reset is rare): for the few hot values hashed on
 * every request, such as a model's rate-limit counter, where a new HMAC each time cost ~3%
 * of the service's CPU per ad (BENCHMARKS.md, round two). Only for values that are not secrets themselves.
 */
export function rememberingHasher(
  hash: (value: string) => string,
  capacity = 10_000,
): (value: string) => string {
  const known = new Map<string, string>();
  return (value) => {
    let hashed = known.get(value);
    if (hashed === undefined) {
      if (known.size >= capacity) known.clear();
      hashed = hash(value);
      known.set(value, hashed);
    }
    return hashed;
  };
}
