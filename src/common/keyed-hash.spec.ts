import { keyedHasher, rememberingHasher } from './keyed-hash';

describe('rememberingHasher', () => {
  it('answers as the hash it wraps, hashing each value once while it remembers it', () => {
    const hash = keyedHasher('a-secret-of-some-length', 'test');
    let calls = 0;
    const counted = (value: string) => {
      calls += 1;
      return hash(value);
    };
    const remembering = rememberingHasher(counted, 3);
    expect(remembering('a')).toBe(hash('a'));
    expect(remembering('a')).toBe(hash('a'));
    expect(remembering('b')).toBe(hash('b'));
    expect(calls).toBe(2);
  });

  it('forgets everything once full, so its memory stays bounded', () => {
    let calls = 0;
    const remembering = rememberingHasher((value) => `${value}-${++calls}`, 2);
    remembering('a');
    remembering('b');
    remembering('c'); // full: forgets a and b
    expect(remembering('c')).toBe('c-3');
    expect(remembering('a')).toBe('a-4');
  });
});
