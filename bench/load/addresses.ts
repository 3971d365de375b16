/**
 * The i-th address of 198.18.0.0/15 (RFC 2544's range for benchmarks; 131,072 of them): the
 * visitor a click comes from, for both load generators (requests.ts, open-loop.ts).
 */
export function benchmarkAddress(index: number): string {
  const n = index % 131_072;
  return `198.${18 + (n >> 16)}.${(n >> 8) & 255}.${n & 255}`;
}
