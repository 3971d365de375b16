import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { IsOmittable } from '@/common/validators';
import { IsKeywordTranslations } from './keyword-translations.validators';

class Sample {
  @IsKeywordTranslations(100)
  @IsOmittable()
  keyword_translations?: unknown;
}

/** The value after the pipe's transform and its messages (first broken rule only). */
function check(value: unknown): { value: unknown; messages: string[] } {
  const sample = plainToInstance(Sample, { keyword_translations: value });
  const errors = validateSync(sample, { stopAtFirstError: true });
  return {
    value: sample.keyword_translations,
    messages: errors.flatMap((e) => Object.values(e.constraints ?? {})),
  };
}

const phrases = (count: number, prefix = 'phrase') =>
  Array.from({ length: count }, (_, i) => `${prefix} ${i}`);

describe('@IsKeywordTranslations()', () => {
  it('normalises keys and phrases, merges keys spelt alike, drops duplicates and the key itself', () => {
    expect(
      check({
        ' Learn  SPANISH': ['Aprender Español', 'aprender español', 'LEARN spanish'],
        'learn spanish': ['ＳＰＡＮＩＳＣＨ lernen'],
        ai: [],
      }),
    ).toEqual({
      value: { 'learn spanish': ['aprender español', 'spanisch lernen'], ai: [] },
      messages: [],
    });
  });

  it('leaves an absent value alone', () => {
    expect(check(undefined)).toEqual({ value: undefined, messages: [] });
  });

  it('keeps a key normalised to "__proto__" a plain key, not the prototype', () => {
    const { value } = check({ __PROTO__: ['x'] }) as { value: Record<string, string[]> };
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(['__proto__']);
  });

  it.each([
    [
      'null',
      null,
      'keyword_translations must be an object whose keys are keywords of the campaign and whose values are lists of phrases',
    ],
    [
      'a list',
      [['ai', ['ki']]],
      'keyword_translations must be an object whose keys are keywords of the campaign and whose values are lists of phrases',
    ],
    [
      'a string value',
      { ai: 'ki' },
      'keyword_translations must map each keyword to a list of phrases (strings): "ai" does not',
    ],
    [
      'a number among the phrases',
      { ai: ['ki', 3] },
      'keyword_translations must map each keyword to a list of phrases (strings): "ai" does not',
    ],
    ['a blank phrase', { ai: ['ki', ' \t '] }, 'keyword_translations has an empty phrase for "ai"'],
    [
      'a phrase of 101 characters',
      { ai: ['k'.repeat(101)] },
      'keyword_translations has a phrase longer than 100 characters for "ai"',
    ],
    [
      '11 phrases for one keyword',
      { ai: phrases(11) },
      'keyword_translations has 11 phrases for "ai"; at most 10 per keyword',
    ],
    [
      '201 phrases in all',
      {
        ...Object.fromEntries(Array.from({ length: 20 }, (_, k) => [`k${k}`, phrases(10)])),
        ai: ['one more'],
      },
      'keyword_translations has 201 phrases; at most 200 per campaign',
    ],
  ])('refuses %s', (_case, value, message) => {
    expect(check(value).messages).toEqual([message]);
  });

  it('accepts 10 phrases per keyword, 200 in all, each of 100 characters', () => {
    const long = (k: number, i: number) => `${k} ${i} `.padEnd(100, 'x');
    const value = Object.fromEntries(
      Array.from({ length: 20 }, (_, k) => [`k${k}`, phrases(10).map((_p, i) => long(k, i))]),
    );
    expect(check(value).messages).toEqual([]);
  });

  it('refuses a map too large to store, though each phrase is within its limits', () => {
    // 120 phrases of 100 three-byte characters: 36,000 bytes of UTF-8.
    const value = Object.fromEntries(
      Array.from({ length: 12 }, (_, k) => [
        `k${k}`,
        phrases(10).map((_p, i) => String.fromCharCode(0x4e00 + i).repeat(100)),
      ]),
    );
    expect(check(value).messages).toEqual([
      expect.stringMatching(
        /^keyword_translations takes \d+ bytes as JSON; at most 32768 \(shorten the phrases\)$/,
      ),
    ]);
  });
});
