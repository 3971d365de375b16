import { Disclosures, localeOfAcceptLanguage, localeOfTag } from '@/ads/disclosure';

describe('localeOfTag', () => {
  it.each([
    ['en', 'en'],
    ['de', 'de'],
    ['DE', 'de'],
    ['fr-CA', 'fr'],
    ['es-419', 'es'],
    ['pt-BR', 'pt'],
    ['zh-Hant-TW', null],
    ['ja', null],
  ])('reads %s as %s', (tag, locale) => {
    expect(localeOfTag(tag)).toBe(locale);
  });
});

describe('localeOfAcceptLanguage', () => {
  it.each([
    ['de', 'de'],
    ['de-DE,de;q=0.9,en;q=0.8', 'de'],
    ['fr-CA', 'fr'],
    ['en-US,en;q=0.9', 'en'],
    // q-values decide, not the order in the header
    ['en;q=0.5, fr;q=0.9, de;q=0.7', 'fr'],
    ['ES;q=0.8, it', 'it'],
    // a language the client refuses (q=0) is never chosen
    ['de;q=0, nl', 'nl'],
    // languages without a label are skipped in favour of the next acceptable one
    ['ja, zh-CN;q=0.9, pt-BR;q=0.8', 'pt'],
    ['*', 'en'],
    ['ja, *;q=0.1', 'en'],
  ])('picks %s → %s', (header, locale) => {
    expect(localeOfAcceptLanguage(header)).toBe(locale);
  });

  it.each([['ja, zh'], ['de;q=0'], [''], [';;;,,q=x'], ['\u0000']])(
    'finds no language in %j',
    (header) => {
      expect(localeOfAcceptLanguage(header)).toBeNull();
    },
  );

  it('reads only the first ranges of a huge header, quickly', () => {
    const header = `de, ${Array.from({ length: 5_000 }, (_, i) => `x${i};q=0.5`).join(', ')}`;
    const started = process.hrtime.bigint();
    expect(localeOfAcceptLanguage(header)).toBe('de');
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(50);
  });
});

describe('Disclosures', () => {
  const disclosures = new Disclosures('Adline');

  it('gives each language its label and attribution line', () => {
    expect(disclosures.for(undefined, undefined)).toEqual({
      label: 'Sponsored',
      attribution: '_Sponsored · Adline_',
    });
    expect(disclosures.for('de', undefined)).toEqual({
      label: 'Anzeige',
      attribution: '_Anzeige · Adline_',
    });
    expect(disclosures.for('fr', undefined).label).toBe('Publicité');
    expect(disclosures.for('es', undefined).label).toBe('Patrocinado');
    expect(disclosures.for('it', undefined).label).toBe('Sponsorizzato');
    expect(disclosures.for('nl', undefined).label).toBe('Gesponsord');
    expect(disclosures.for('pt', undefined).label).toBe('Patrocinado');
  });

  it('lets the locale field win over the header, even when it names no known language', () => {
    expect(disclosures.for('fr-CA', 'de').label).toBe('Publicité');
    expect(disclosures.for('ja', 'de').label).toBe('Sponsored');
  });

  it('falls back to the header, then to English', () => {
    expect(disclosures.for(undefined, 'es-MX,es;q=0.9').label).toBe('Patrocinado');
    expect(disclosures.for(undefined, 'ja').label).toBe('Sponsored');
    expect(disclosures.for(undefined, '').label).toBe('Sponsored');
  });

  it('answers a header it has seen with the same object, without negotiating again', () => {
    const first = disclosures.for(undefined, 'nl-BE, fr;q=0.5');
    expect(disclosures.for(undefined, 'nl-BE, fr;q=0.5')).toBe(first);
    expect(first.label).toBe('Gesponsord');
  });

  it('keeps answering correctly after the header cache starts over', () => {
    for (let i = 0; i < 2_500; i += 1) {
      expect(disclosures.for(undefined, `x${i}, de;q=0.5`).label).toBe('Anzeige');
    }
    expect(disclosures.for(undefined, 'fr').label).toBe('Publicité');
  });

  it('escapes the service name in the attribution line', () => {
    expect(new Disclosures('Ads_[x]').for(undefined, undefined).attribution).toBe(
      '_Sponsored · Ads\\_\\[x\\]_',
    );
  });
});
