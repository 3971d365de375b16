import { isIP } from 'node:net';
import { ConfigError } from './environment';

/**
 * What Fastify's `trustProxy` gets: `false` (trust no proxy: the client IP is the socket's
 * peer, whatever `X-Forwarded-For` says), a hop count, or the addresses and CIDR ranges of
 * the proxies whose `X-Forwarded-For` is believed.
 */
export type TrustedProxies = false | number | string[];

/** Parses TRUSTED_PROXIES: `2` (a hop count) or `10.0.0.0/8, 192.168.1.7, fd00::/8`. */
export function parseTrustedProxies(value: string | undefined): TrustedProxies {
  if (value === undefined || value.trim() === '') return false;
  const text = value.trim();
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops < 1 || hops > 16) throw invalid(`a hop count must be 1–16 (got ${text})`);
    return hops;
  }
  const entries = text.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    if (!isAddressOrRange(entry)) {
      throw invalid(`"${entry}" is not an IP address or CIDR range (e.g. 10.0.0.0/8)`);
    }
  }
  return entries;
}

function isAddressOrRange(entry: string): boolean {
  const [address, bits, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  if (!/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (family === 4 ? 32 : 128);
}

const invalid = (reason: string) =>
  new ConfigError(`Invalid environment variable TRUSTED_PROXIES: ${reason}`);

/**
 * The value for Fastify's `trustProxy`; a hop count becomes the function Fastify itself
 * would build from it (Nest's adapter types leave the number out).
 */
export function fastifyTrustProxy(
  proxies: TrustedProxies,
): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof proxies === 'number' ? (_address, hop) => hop < proxies : proxies;
}
