import { laptopChat } from '@test/support/ads';
import { expectProblem } from '@test/support/problem';
import { startTestApp, TestApp } from '@test/support/test-app';
import { testDatabaseKind } from '@test/support/test-database';

interface Ad {
  campaign_markdown: string;
  sponsored: unknown;
  disclosure: unknown;
}

describe(`fetch-ads: the disclosure on every ad (${testDatabaseKind()})`, () => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await startTestApp();
    ({ key } = await t.f.publisherWithKey());
    await t.f.campaign({ keywords: 'ultrabook', name: 'Feather Laptops', text: 'Light.' });
  });
  afterAll(() => t.close());

  /** fetch-ads for the campaign above, with these extra body fields and headers. */
  const fetchAds = (extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
    t.http('/api/fetch-ads', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'service-api-key': key, ...headers },
      body: JSON.stringify(laptopChat('ultrabook', extra)),
    });

  async function adFor(extra: Record<string, unknown>, headers: Record<string, string> = {}) {
    const response = await fetchAds(extra, headers);
    expect(response.status).toBe(200);
    return ((await response.json()) as { advertisements: Ad[] }).advertisements[0];
  }

  it('marks an ad as sponsored in English, in the fields and as the Markdown’s last line, when the request names no language', async () => {
    const ad = await adFor({});
    expect(ad.sponsored).toBe(true);
    expect(ad.disclosure).toBe('Sponsored');
    expect(ad.campaign_markdown).toMatch(/\n\n_Sponsored · Adline_$/);
  });

  it.each([
    ['de-DE,de;q=0.9,en;q=0.8', 'Anzeige'],
    ['fr-CA', 'Publicité'],
    ['es-MX,es;q=0.9', 'Patrocinado'],
    ['it', 'Sponsorizzato'],
    ['nl-BE', 'Gesponsord'],
    ['pt-BR', 'Patrocinado'],
    ['en;q=0.3, de;q=0.6, fr;q=0.9', 'Publicité'],
    ['de;q=0, ja, es;q=0.1', 'Patrocinado'],
    ['ja, zh-CN', 'Sponsored'],
    ['*', 'Sponsored'],
  ])('labels the ad for Accept-Language %j as %j', async (header, label) => {
    const ad = await adFor({}, { 'accept-language': header });
    expect(ad.sponsored).toBe(true);
    expect(ad.disclosure).toBe(label);
    expect(ad.campaign_markdown.endsWith(`\n\n_${label} · Adline_`)).toBe(true);
  });

  it('lets the locale field win over the Accept-Language header', async () => {
    const ad = await adFor({ locale: 'de' }, { 'accept-language': 'fr' });
    expect(ad.disclosure).toBe('Anzeige');
    expect(ad.campaign_markdown).toMatch(/_Anzeige · Adline_$/);
    expect((await adFor({ locale: 'fr-CA' })).disclosure).toBe('Publicité');
  });

  it('labels in English when the locale field names a language without a label', async () => {
    const ad = await adFor({ locale: 'ja' }, { 'accept-language': 'de' });
    expect(ad.disclosure).toBe('Sponsored');
  });

  it.each(['german', 'de_DE', 'de-', 'd', 'de-DE-x-private', '', 'en-US;q=0.8'])(
    'refuses the locale %j with 400 validation_failed naming locale',
    async (locale) => {
      const problem = await expectProblem(await fetchAds({ locale }), 400, 'validation_failed');
      expect(problem.errors?.map((e) => e.field)).toEqual(['locale']);
    },
  );

  it('refuses a locale that is not a string', async () => {
    const problem = await expectProblem(await fetchAds({ locale: 7 }), 400, 'validation_failed');
    expect(problem.errors).toEqual([{ field: 'locale', message: 'locale must be a string' }]);
  });

  it('ignores an Accept-Language header it cannot read, and labels in English', async () => {
    expect((await adFor({}, { 'accept-language': ';;q=x,,' })).disclosure).toBe('Sponsored');
    const huge = Array.from({ length: 800 }, (_, i) => `x${i};q=0.5`).join(', ');
    expect((await adFor({}, { 'accept-language': huge })).disclosure).toBe('Sponsored');
  });
});
