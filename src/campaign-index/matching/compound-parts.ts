import { decompose } from '@/common/text-folding';

/**
 * The parts of a long word by which a shorter sent word may meet it: "katzen" in
 * "katzenfutter", "krankenversicherung" in "auslandskrankenversicherung", "césped" in
 * "cortacésped". German and Spanish write in one word what English writes in two, and no
 * maintained package splits compounds of all four languages, so a word's leading and
 * trailing parts stand in: every prefix and suffix of at least `MIN_PART_LETTERS` that
 * leaves at least `MIN_REST_LETTERS` of the word. Only a sent word may be the part: a
 * campaign keyword "bank" does not meet a sent "fensterbank".
 */
const MIN_COMPOUND_LETTERS = 9;
const MIN_PART_LETTERS = 5;
const MIN_REST_LETTERS = 3;

export function partKey(part: string): string {
  return `~${decompose(part)}`;
}

/** The part keys of a word (see above); none for a word shorter than a compound. */
export function compoundPartKeys(word: string): string[] {
  const folded = decompose(word);
  if (folded.length < MIN_COMPOUND_LETTERS) return [];
  const keys: string[] = [];
  for (let length = MIN_PART_LETTERS; length <= folded.length - MIN_REST_LETTERS; length++) {
    keys.push(`~${folded.slice(0, length)}`, `~${folded.slice(folded.length - length)}`);
  }
  return keys;
}

/** Whether a sent word is long enough to be looked up as a part. */
export function mayBePart(word: string): boolean {
  return word.length >= MIN_PART_LETTERS;
}
