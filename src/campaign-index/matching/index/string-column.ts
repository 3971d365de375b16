/** Bytes copied between two chances for `buildInSlices` to give the event loop a turn. */
const BYTES_PER_YIELD = 1 << 20;

/**
 * Strings appended one by one and read back by row, kept as UTF-8 in one byte buffer with
 * their end offsets in a Uint32Array. A million campaigns' strings as JS strings are
 * millions of heap objects, each traced by every major GC; here they are two buffers the
 * GC never looks into. Reading a row decodes it: done only for the few rows a request
 * returns. Both arrays grow by doubling while rows are added; `compact` trims them.
 * Lone UTF-16 surrogates, which no stored campaign holds, would read back as U+FFFD.
 */
export class StringColumn<T extends string | null = string> {
  private bytes = Buffer.allocUnsafeSlow(1024);
  /** Row `i` is `bytes[ends[i - 1] .. ends[i])`, with `ends[-1]` taken as 0. */
  private ends = new Uint32Array(64);
  /** One byte per row, 1 for null; left empty while no row is null. */
  private nulls = new Uint8Array(0);
  private rows = 0;
  private used = 0;

  push(value: T): void {
    if (this.rows === this.ends.length) {
      const ends = new Uint32Array(Math.max(64, 2 * this.rows));
      ends.set(this.ends);
      this.ends = ends;
    }
    if (value === null) {
      if (this.nulls.length <= this.rows) {
        const nulls = new Uint8Array(this.ends.length);
        nulls.set(this.nulls);
        this.nulls = nulls;
      }
      this.nulls[this.rows] = 1;
    } else {
      // A UTF-16 code unit takes at most 3 bytes of UTF-8.
      const most = this.used + 3 * value.length;
      if (most > this.bytes.length) {
        let size = Math.max(1024, 2 * this.bytes.length);
        while (size < most) size *= 2;
        const bytes = Buffer.allocUnsafeSlow(size);
        this.bytes.copy(bytes, 0, 0, this.used);
        this.bytes = bytes;
      }
      this.used += this.bytes.write(value, this.used, 'utf8');
    }
    this.ends[this.rows++] = this.used;
  }

  at(row: number): T {
    if (this.nulls[row] === 1) return null as T;
    return this.bytes.toString('utf8', this.start(row), this.ends[row]) as T;
  }

  /** Whether the row holds `value`, compared in place while it is ASCII. */
  holds(row: number, value: string): boolean {
    const end = this.ends[row];
    let at = this.start(row);
    // UTF-8 takes at least a byte per UTF-16 code unit.
    if (this.nulls[row] === 1 || end - at < value.length) return false;
    for (let unit = 0; unit < value.length; unit++, at++) {
      const code = value.charCodeAt(unit);
      if (code >= 0x80) return this.at(row) === value;
      if (this.bytes[at] !== code) return false;
    }
    return at === end;
  }

  /** Whether the two rows hold the same string (null equals null). */
  equals(a: number, b: number): boolean {
    if ((this.nulls[a] === 1) !== (this.nulls[b] === 1)) return false;
    const start = this.start(a);
    const length = this.ends[a] - start;
    if (this.ends[b] - this.start(b) !== length) return false;
    return this.bytes.compare(this.bytes, this.start(b), this.ends[b], start, this.ends[a]) === 0;
  }

  /**
   * The two rows' strings in JavaScript's order (`<`, by UTF-16 code unit), without
   * decoding them unless they first differ outside ASCII: UTF-8 bytes sort by code point,
   * which departs from that order only beyond the Basic Multilingual Plane.
   */
  compare(a: number, b: number): number {
    const { bytes } = this;
    const endA = this.ends[a];
    const endB = this.ends[b];
    let atA = this.start(a);
    let atB = this.start(b);
    for (; atA < endA && atB < endB; atA++, atB++) {
      const byteA = bytes[atA];
      const byteB = bytes[atB];
      if (byteA === byteB) continue;
      if (byteA < 0x80 || byteB < 0x80) return byteA - byteB;
      return (this.at(a) as string) < (this.at(b) as string) ? -1 : 1;
    }
    return endA - atA - (endB - atB);
  }

  /** Trims the buffers to what the rows use, copying in steps of `BYTES_PER_YIELD`. */
  *compact(): Generator<void, void> {
    const bytes = Buffer.allocUnsafeSlow(this.used);
    for (let from = 0; from < this.used; from += BYTES_PER_YIELD) {
      this.bytes.copy(bytes, from, from, Math.min(from + BYTES_PER_YIELD, this.used));
      yield;
    }
    this.bytes = bytes;
    this.ends = this.ends.slice(0, this.rows);
    if (this.nulls.length > 0) this.nulls = this.nulls.slice(0, this.rows);
  }

  private start(row: number): number {
    return row === 0 ? 0 : this.ends[row - 1];
  }
}
