/**
 * Distinct strings numbered in the order they are first seen. The index keeps a campaign's
 * advertiser id and category as such a number in an Int32Array by rank (4 bytes a campaign
 * each, no string per campaign), so that a filter on them can compare numbers: map the few
 * values it names to their codes once (`find`), then read the array.
 */
export class ValueCodes {
  /** The value of each code. */
  readonly values: string[] = [];
  private readonly codes = new Map<string, number>();

  /** The value's code, numbering it when it is new. */
  codeOf(value: string): number {
    let code = this.codes.get(value);
    if (code === undefined) {
      code = this.values.length;
      this.values.push(value);
      this.codes.set(value, code);
    }
    return code;
  }

  /** The value's code, or undefined when no campaign holds it. */
  find(value: string): number | undefined {
    return this.codes.get(value);
  }
}
