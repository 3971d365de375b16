import {
  normaliseKeyword,
  parseKeywordList,
  scanWords,
  searchPhrase,
  textWords,
  wordHash,
} from '@/ads/matching/normalise';
import { containsKeyword, tokeniseText } from '../../../test/support/tokenised-text';

describe('normaliseKeyword', () => {
  it('reads full-width letters and digits as their plain forms', () => {
    expect(normaliseKeyword('ＡＩ　Ｔｏｏｌｓ２０２５')).toBe('ai tools2025');
  });

  it('spells a ligature as its letters', () => {
    expect(normaliseKeyword('ﬁnance')).toBe('finance');
  });

  it('treats a decomposed accent like the composed letter', () => {
    expect(normaliseKeyword('Cafe\u0301')).toBe(normaliseKeyword('Café'));
  });

  it('ignores case', () => {
    expect(normaliseKeyword('Machine LEARNING')).toBe('machine learning');
  });

  it('trims and collapses any run of spaces, tabs and line breaks', () => {
    expect(normaliseKeyword('  machine \t\n learning\u00a0 ')).toBe('machine learning');
  });
});

describe('parseKeywordList', () => {
  it('splits on commas and normalises each keyword', () => {
    expect(parseKeywordList('AI, Machine  Learning ,travel')).toEqual([
      'ai',
      'machine learning',
      'travel',
    ]);
  });

  it('drops empty entries', () => {
    expect(parseKeywordList(' , ai,, ,')).toEqual(['ai']);
  });

  it('keeps the first of keywords that normalise alike, in first-seen order', () => {
    expect(parseKeywordList('travel, AI, ai, ＡＩ, Travel')).toEqual(['travel', 'ai']);
  });

  it('answers an empty list for an empty string', () => {
    expect(parseKeywordList('')).toEqual([]);
  });
});

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
