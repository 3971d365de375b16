import { Conversion } from '@/conversions/entities/conversion.entity';
import { ask, campaignLink, followAsBrowser } from '@test/support/ads';
import { body } from '@test/support/operator-api';
import { startTestApp, TestApp } from '@test/support/test-app';
import { testDatabaseKind } from '@test/support/test-database';

describe(`The conversion pixel (${testDatabaseKind()})`, () => {
  let t: TestApp;
  let n = 0;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  /** A campaign, its pixel URLs (from the operator's read) and a click id of its ad. */
  async function clicked(clickIdParam = 'adl_click') {
    const keywords = `pixel${++n}`;
    const campaign = await t.f.campaign({ keywords, clickIdParam });
    const publisher = await t.f.publisherWithKey();
    const link = await campaignLink(await t.fetchAds(publisher.key, ask(keywords)));
    const location = (await followAsBrowser(link)).headers.get('location')!;
    const operator = await t.f.operator();
    const read = await body(await operator.api('GET', `/api/admin/campaigns/${campaign.id}`), 200);
    const pixel = read.pixel as { gif_url: string; script_url: string };
    return { campaign, pixel, clickId: new URL(location).searchParams.get(clickIdParam)! };
  }

  const stored = (campaignId: string) =>
    t.dataSource.getRepository(Conversion).findBy({ campaignId });

  async function expectGif(response: Response) {
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/gif');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes).toHaveLength(43);
    expect(bytes.subarray(0, 6).toString('latin1')).toBe('GIF89a');
  }

  it('answers a 1×1 GIF and records the conversion once', async () => {
    const { campaign, pixel, clickId } = await clicked();
    const url = `${pixel.gif_url}&event=purchase&event_id=o-1&value=12.5&currency=EUR&click_id=${clickId}`;
    await expectGif(await fetch(url));
    await expectGif(await fetch(url));
    const rows = await stored(campaign.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ source: 'pixel', event: 'purchase', valueMicros: 12_500_000 });
  });

  it('still answers the GIF for a forged token or a bad click id, recording nothing', async () => {
    const { campaign, pixel, clickId } = await clicked();
    const forged = pixel.gif_url.replace(/.{4}$/, 'AAAA');
    await expectGif(await fetch(`${forged}&event=purchase&event_id=f-1&click_id=${clickId}`));
    await expectGif(await fetch(`${pixel.gif_url}&event=purchase&event_id=f-2&click_id=nope`));
    await expectGif(await fetch(`${t.baseUrl}/api/conversions/pixel.gif`));
    expect(await stored(campaign.id)).toHaveLength(0);
  });

  it("serves a script with the cookie logic and the campaign's parameter name", async () => {
    const { pixel } = await clicked('my_click');
    const response = await fetch(pixel.script_url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/javascript');
    const script = await response.text();
    expect(script).toContain('"my_click"');
    expect(script).toContain('"adl_click"');
    expect(script).toContain('SameSite=Lax');
    expect(script).toContain('window.adline.convert');
    expect(script).toContain(pixel.gif_url);
  });
});
