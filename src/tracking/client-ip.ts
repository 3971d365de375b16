import { isIPv4, isIPv6 } from 'node:net';

/**
 * The part of a client IP that names one person's connection for the per-IP click limits:
 * an IPv4 address, or an IPv6 address's /64 prefix (one home or phone is given a whole /64
 * and may rotate through it at will). IPv4-mapped IPv6 (`::ffff:1.2.3.4`) counts as IPv4.
 * Only a keyed hash of this is ever stored.
 */
export function clientNetwork(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1];
  if (isIPv4(ip) || !isIPv6(ip)) return ip;
  return expandIPv6(ip).slice(0, 4).join(':') + '::/64';
}

/** The eight 16-bit groups of an IPv6 address, without leading zeros. */
function expandIPv6(ip: string): string[] {
  const address = ip.split('%')[0].toLowerCase();
  const [head, tail] = address.includes('::') ? address.split('::') : [address, undefined];
  const groups = (part: string | undefined) => (part ? part.split(':') : []);
  const left = groups(head);
  const right = groups(tail);
  const missing = tail === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...Array<string>(missing).fill('0'), ...right].map((g) =>
    g.includes('.') ? g : parseInt(g, 16).toString(16),
  );
}
