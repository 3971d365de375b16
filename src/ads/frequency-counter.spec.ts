import { MemoryFrequencyCounter } from './frequency-counter';

describe('MemoryFrequencyCounter', () => {
  let now = 1_000_000;
  const counter = () => new MemoryFrequencyCounter(() => now);

  it('answers the count before each addition, within the window', () => {
    const sessions = counter();
    expect(sessions.add('s', 1, 60_000)).toBe(0);
    expect(sessions.add('s', 2, 60_000)).toBe(1);
    expect(sessions.add('s', 1, 60_000)).toBe(3);
    expect(sessions.add('other', 1, 60_000)).toBe(0);
  });

  it('starts again once the window of the first ad has passed', () => {
    const sessions = counter();
    sessions.add('s', 3, 60_000);
    now += 59_999;
    expect(sessions.add('s', 1, 60_000)).toBe(3);
    now += 1;
    expect(sessions.add('s', 1, 60_000)).toBe(0);
  });

  it('drops expired sessions lazily, at most once a minute', () => {
    const sessions = counter();
    now += 120_000;
    sessions.add('a', 1, 1_000);
    sessions.add('b', 1, 1_000);
    expect(sessions.size).toBe(2);
    now += 30_000;
    sessions.add('c', 1, 1_000);
    expect(sessions.size).toBe(3);
    now += 30_000;
    sessions.add('d', 1, 1_000);
    expect(sessions.size).toBe(1);
  });

  it('never holds more than its limit of sessions, however many session ids a caller invents', () => {
    const sessions = new MemoryFrequencyCounter(() => now, 3);
    for (const id of ['a', 'b', 'c', 'd', 'e']) sessions.add(id, 1, 3_600_000);
    expect(sessions.size).toBe(3);
    // The newest sessions keep their counts; the longest-known were forgotten.
    expect(sessions.add('e', 1, 3_600_000)).toBe(1);
    expect(sessions.add('a', 1, 3_600_000)).toBe(0);
  });

  it('makes room by sweeping expired sessions first', () => {
    const sessions = new MemoryFrequencyCounter(() => now, 2);
    sessions.add('short', 1, 1_000);
    sessions.add('long', 1, 3_600_000);
    now += 2_000;
    sessions.add('new', 1, 3_600_000);
    expect(sessions.add('long', 1, 3_600_000)).toBe(1);
  });
});
