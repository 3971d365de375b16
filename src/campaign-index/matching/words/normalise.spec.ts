import {
  scanWords,
  searchPhrase,
  textWords,
  wordHash,
} from '@/campaign-index/matching/words/normalise';
import { containsKeyword, tokeniseText } from '@test/support/tokenised-text';

describe('tokeniseText', () => {
  it('lower-cases, turns punctuation into single spaces and pads both ends', () => {
    expect(tokeniseText('Hello,   Machine-Learning world!')).toBe(' hello machine learning world ');
  });

  it('lets a multi-word keyword be found as whole words', () => {
    const text = tokeniseText('I read about MACHINE learning yesterday.');
    expect(text.includes(' machine learning ')).toBe(true);
  });

  it('keeps the plus and sharp signs that end a word, not those that start one', () => {
    expect(tokeniseText('Tips: C++ and C# #coding')).toBe(' tips c++ and c# coding ');
  });

  it('normalises full-width conversation text like keywords', () => {
    expect(tokeniseText('ＡＩ ｔｏｏｌｓ')).toBe(' ai tools ');
  });

  it('keeps accented and non-Latin letters inside words and breaks at emoji', () => {
    expect(textWords('São Paulo, Ελλάδα 🤖robots')).toEqual(['são', 'paulo', 'ελλάδα', 'robots']);
  });

  it('answers a single space for text without words', () => {
    expect(tokeniseText(' ?! ')).toBe(' ');
  });
});

describe('containsKeyword', () => {
  it('finds a keyword written with punctuation the way the conversation spells it', () => {
    expect(searchPhrase('node.js')).toBe('node js');
    expect(containsKeyword(tokeniseText('We deploy Node.js services'), 'node.js')).toBe(true);
  });

  it('does not find a keyword inside a longer word', () => {
    expect(containsKeyword(tokeniseText('a cartoon about shopping'), 'cart')).toBe(false);
  });

  it('does not find a multi-word keyword whose words are apart', () => {
    expect(containsKeyword(tokeniseText('machine for learning'), 'machine learning')).toBe(false);
  });
});

describe('scanWords', () => {
  it('gives each word the hash that wordHash gives the same word', () => {
    const seen: Array<[string, number]> = [];
    scanWords('Crème BRÛLÉE, c++ and 𠀀x!', (folded, start, end, hash) =>
      seen.push([folded.slice(start, end), hash]),
    );
    expect(seen.map(([word]) => word)).toEqual(['crème', 'brûlée', 'c++', 'and', '𠀀x']);
    for (const [word, hash] of seen) expect(hash).toBe(wordHash(word));
    expect(new Set(seen.map(([, hash]) => hash)).size).toBe(seen.length);
  });
});
