import { foldedWords, wordHash } from './folded-words';

describe('foldedWords', () => {
  it('lower-cases and drops accents, in any script the lists use', () => {
    expect(foldedWords('SUICIDIO Überdosis déprimée Ñandú')).toEqual([
      'suicidio',
      'uberdosis',
      'deprimee',
      'nandu',
    ]);
  });

  it('spells ß, œ and æ out, capitals included', () => {
    expect(foldedWords('Maße GROẞE sœur Œuvre Cæsar')).toEqual([
      'masse',
      'grosse',
      'soeur',
      'oeuvre',
      'caesar',
    ]);
  });

  it('folds compatibility forms and letters decomposed with combining marks', () => {
    expect(foldedWords('ＳＵＩＣＩＤＥ ﬁre')).toEqual(['suicide', 'fire']);
    expect(foldedWords('u\u0308berdosis')).toEqual(['uberdosis']);
    expect(foldedWords('İSTANBUL')).toEqual(['istanbul']);
  });

  it('breaks words at anything that is not a letter or digit', () => {
    expect(foldedWords("self-harm don't self_harm self‑harm")).toEqual([
      'self',
      'harm',
      'don',
      't',
      'self',
      'harm',
      'self',
      'harm',
    ]);
    expect(foldedWords('die😀7. Klasse')).toEqual(['die', '7', 'klasse']);
  });

  it('hashes a word as FNV-1a of its folded characters', () => {
    expect(wordHash('a')).toBe(0xe40c292c);
  });
});
