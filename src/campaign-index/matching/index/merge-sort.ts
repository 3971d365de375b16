import { STEPS_PER_YIELD } from '../build-slices';

/** A stable bottom-up merge sort that yields now and then (`Array.prototype.sort` cannot). */
export function* mergeSort(
  items: Int32Array<ArrayBuffer>,
  compare: (a: number, b: number) => number,
): Generator<void, Int32Array> {
  const RUN = 32;
  const length = items.length;
  for (let low = 0; low < length; low += RUN) {
    const high = Math.min(low + RUN, length);
    for (let next = low + 1; next < high; next++) {
      const item = items[next];
      let at = next - 1;
      while (at >= low && compare(items[at], item) > 0) {
        items[at + 1] = items[at];
        at--;
      }
      items[at + 1] = item;
    }
    if (low % (RUN * 128) === 0) yield;
  }
  let from = items;
  let to = new Int32Array(length);
  for (let width = RUN; width < length; width *= 2) {
    let steps = 0;
    for (let low = 0; low < length; low += 2 * width) {
      const middle = Math.min(low + width, length);
      const high = Math.min(low + 2 * width, length);
      let left = low;
      let right = middle;
      for (let out = low; out < high; out++) {
        to[out] =
          left < middle && (right >= high || compare(from[left], from[right]) <= 0)
            ? from[left++]
            : from[right++];
        if (++steps % STEPS_PER_YIELD === 0) yield;
      }
    }
    [from, to] = [to, from];
  }
  return from;
}
