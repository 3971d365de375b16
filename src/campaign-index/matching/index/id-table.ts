import type { StringColumn } from './string-column';

/**
 * Rank by campaign id, in place of a Map whose million keys would be traced by every major
 * GC: open addressing with linear probing over typed arrays at most half full, each slot
 * holding an id's 32-bit hash and its rank + 1 (0: empty). A slot whose hash matches is
 * confirmed against the id stored in `ids`.
 */
export class IdTable {
  private readonly hashes: Int32Array;
  private readonly ranks: Int32Array;
  private readonly mask: number;

  constructor(
    count: number,
    private readonly ids: StringColumn,
    /** The row in `ids` of each rank. */
    private readonly inputOf: Int32Array,
  ) {
    let slots = 2;
    while (slots < 2 * count) slots *= 2;
    this.hashes = new Int32Array(slots);
    this.ranks = new Int32Array(slots);
    this.mask = slots - 1;
  }

  /** Adds a rank (its `inputOf` already set); a later rank with the same id replaces it. */
  add(rank: number, hash: number): void {
    const { hashes, ranks, mask, ids, inputOf } = this;
    let slot = hash & mask;
    while (ranks[slot] !== 0) {
      if (hashes[slot] === hash && ids.equals(inputOf[ranks[slot] - 1], inputOf[rank])) break;
      slot = (slot + 1) & mask;
    }
    hashes[slot] = hash;
    ranks[slot] = rank + 1;
  }

  find(id: string): number | undefined {
    const { hashes, ranks, mask, ids, inputOf } = this;
    const hash = idHash(id);
    for (let slot = hash & mask; ranks[slot] !== 0; slot = (slot + 1) & mask) {
      if (hashes[slot] === hash && ids.holds(inputOf[ranks[slot] - 1], id)) {
        return ranks[slot] - 1;
      }
    }
    return undefined;
  }
}

/**
 * FNV-1a over the UTF-16 code units, then a Murmur3 finaliser: ids that differ only in
 * their last characters (sequences, timestamps) must still spread over the table's low bits.
 */
export function idHash(id: string): number {
  let hash = 0x811c9dc5 | 0;
  for (let at = 0; at < id.length; at++) hash = Math.imul(hash ^ id.charCodeAt(at), 0x01000193);
  hash = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b);
  hash = Math.imul(hash ^ (hash >>> 13), 0xc2b2ae35);
  return hash ^ (hash >>> 16);
}
