import { normaliseKeyword, parseKeywordList } from './keywords';

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
