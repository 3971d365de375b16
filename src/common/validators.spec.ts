import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { IsHttpUrl, isIsoDay, IsRequired, IsRevenueShare, IsText } from '@/common/validators';

describe('isIsoDay', () => {
  it.each(['2026-03-01', '2024-02-29', '2026-12-31', '1999-01-01'])('accepts %s', (day) => {
    expect(isIsoDay(day)).toBe(true);
  });

  it.each([
    ['a day that does not exist', '2026-02-29'],
    ['month 13', '2026-13-01'],
    ['day 0', '2026-03-00'],
    ['a date with a time', '2026-03-01T00:00:00Z'],
    ['a short form', '2026-3-1'],
    ['another order', '01-03-2026'],
    ['an empty string', ''],
    ['a number', 20260301],
  ])('refuses %s', (_label, value) => {
    expect(isIsoDay(value)).toBe(false);
  });
});

class Sample {
  @IsText({ min: 1, max: 5 }) name: string;
  @IsHttpUrl(40) link: string;
  @IsRevenueShare() share: number;
}

/** The fields of `Sample` that fail for these values (the others are valid). */
function failing(values: Partial<Record<keyof Sample, unknown>>): string[] {
  const sample = plainToInstance(Sample, {
    name: 'ok',
    link: 'https://site.example',
    share: 0.5,
    ...values,
  });
  return validateSync(sample).map((e) => e.property);
}

describe('composite validators', () => {
  it('accepts valid values', () => {
    expect(failing({})).toEqual([]);
  });

  it('trims text before measuring it', () => {
    expect(failing({ name: '  abcde  ' })).toEqual([]);
    expect(failing({ name: '   ' })).toEqual(['name']);
    expect(failing({ name: 'abcdef' })).toEqual(['name']);
  });

  it.each(['http://site.example/path?q=1', 'https://sub.site.example:8443/a'])(
    'accepts the http(s) URL %s',
    (link) => {
      expect(failing({ link })).toEqual([]);
    },
  );

  it.each([
    'site.example',
    'ftp://site.example',
    'javascript:alert(1)',
    'https://user:secret@site.example',
    `https://site.example/${'a'.repeat(30)}`,
  ])('refuses the link %s', (link) => {
    expect(failing({ link })).toEqual(['link']);
  });

  it.each([0, 1, 0.7, 0.123456])('accepts the revenue share %p', (share) => {
    expect(failing({ share })).toEqual([]);
  });

  it.each([-0.1, 1.000001, 0.1234567, Number.NaN, '0.5'])(
    'refuses the revenue share %p',
    (share) => {
      expect(failing({ share })).toEqual(['share']);
    },
  );
});

class Named {
  @IsText({ min: 1, max: 5 })
  @IsRequired()
  name: string;
}

describe('IsRequired', () => {
  it.each([
    ['left out', {}],
    ['null', { name: null }],
  ])('reports a field %s as required, before its other rules', (_label, values) => {
    const errors = validateSync(plainToInstance(Named, values), { stopAtFirstError: true });
    expect(errors.map((e) => e.constraints)).toEqual([{ isDefined: 'name is required' }]);
  });

  it('lets a sent field through to its other rules', () => {
    expect(validateSync(plainToInstance(Named, { name: 'Ada' }))).toEqual([]);
  });
});
