import { ClickIdSigner } from '@/tracking/click-id';
import { Click } from '@/tracking/entities/click.entity';
import { ask, campaignLink, followAsBrowser, followWith } from '@test/support/ads';
import { body } from '@test/support/operator-api';
import { startTestApp, TestApp } from '@test/support/test-app';
import { testDatabaseKind } from '@test/support/test-database';

describe(`The landing URL's click id (${testDatabaseKind()})`, () => {
  let t: TestApp;
  let n = 0;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  /** Creates a campaign for a fresh keyword, serves its ad and follows its link. */
  async function landOn(options: { targetUrl: string; clickIdParam?: string | null }) {
    const keywords = `clickid${++n}`;
    const campaign = await t.f.campaign({ keywords, ...options });
    const publisher = await t.f.publisherWithKey();
    const link = await campaignLink(await t.fetchAds(publisher.key, ask(keywords)));
    const response = await followAsBrowser(link);
    expect(response.status).toBe(302);
    return { campaign, location: response.headers.get('location')! };
  }

  const signer = () => new ClickIdSigner(t.config.clickSigningSecret);

  it("adds the recorded click's id to the target URL, which names that click", async () => {
    const { campaign, location } = await landOn({ targetUrl: 'https://shop.example/boots' });
    const token = new URL(location).searchParams.get('adl_click')!;
    expect(location).toBe(`https://shop.example/boots?adl_click=${token}`);
    expect(token.length).toBeLessThanOrEqual(64);
    const clicks = await t.dataSource.getRepository(Click).findBy({ campaignId: campaign.id });
    expect(clicks.map((c) => c.id)).toEqual([signer().verify(token)]);
  });

  it('keeps the query and the fragment of the target URL as they are', async () => {
    const { location } = await landOn({ targetUrl: 'https://shop.example/p?q=a+b%20c&utm=x#top' });
    expect(location).toMatch(/^https:\/\/shop\.example\/p\?q=a\+b%20c&utm=x&adl_click=[\w-]+#top$/);
  });

  it('replaces a click id parameter the target URL already has instead of adding a second', async () => {
    const { location } = await landOn({ targetUrl: 'https://shop.example/?adl_click=fixed&a=1' });
    expect(location).toMatch(/^https:\/\/shop\.example\/\?a=1&adl_click=[\w-]+$/);
    expect(new URL(location).searchParams.getAll('adl_click')).toHaveLength(1);
  });

  it('adds nothing when the campaign turned it off (null)', async () => {
    const { location } = await landOn({
      targetUrl: 'https://shop.example/plain',
      clickIdParam: null,
    });
    expect(location).toBe('https://shop.example/plain');
  });

  it("uses the campaign's own parameter name", async () => {
    const { location } = await landOn({
      targetUrl: 'https://shop.example/custom',
      clickIdParam: 'gclid_adline',
    });
    const token = new URL(location).searchParams.get('gclid_adline')!;
    expect(signer().verify(token)).not.toBeNull();
    expect(new URL(location).searchParams.has('adl_click')).toBe(false);
  });

  it('adds a click id to unbilled clicks too (a script without a user agent)', async () => {
    const keywords = `clickid${++n}`;
    await t.f.campaign({ keywords, targetUrl: 'https://shop.example/bot' });
    const publisher = await t.f.publisherWithKey();
    const link = await campaignLink(await t.fetchAds(publisher.key, ask(keywords)));
    const response = await followWith(link, null);
    expect(response.headers.get('location')).toMatch(/\?adl_click=[\w-]+$/);
  });

  it('takes click_id_param and attribution_window_days in the operator API, validated', async () => {
    const operator = await t.f.operator();
    const advertiser = await body(
      await operator.api('POST', '/api/admin/advertisers', { name: 'Clicky' }),
      201,
    );
    const base = {
      advertiser_id: advertiser.id,
      name: 'Boots',
      text: 'Waterproof boots.',
      target_url: 'https://shop.example/b',
      keywords: ['boots'],
      bid_per_click: 0.3,
    };
    const created = await body(await operator.api('POST', '/api/admin/campaigns', base), 201);
    expect(created).toMatchObject({ click_id_param: 'adl_click', attribution_window_days: 30 });
    const patched = await body(
      await operator.api('PATCH', `/api/admin/campaigns/${String(created.id)}`, {
        click_id_param: null,
        attribution_window_days: 7,
      }),
      200,
    );
    expect(patched).toMatchObject({ click_id_param: null, attribution_window_days: 7 });
    for (const bad of [
      { click_id_param: '1abc' },
      { click_id_param: 'a'.repeat(33) },
      { click_id_param: 'with-dash' },
      { attribution_window_days: 0 },
      { attribution_window_days: 91 },
      { attribution_window_days: 1.5 },
    ]) {
      const response = await operator.api('POST', '/api/admin/campaigns', { ...base, ...bad });
      expect(response.status).toBe(400);
    }
    const read = await body(
      await operator.api('GET', `/api/admin/campaigns/${String(created.id)}`),
      200,
    );
    const pixel = read.pixel as { gif_url: string; script_url: string };
    expect(pixel.gif_url).toMatch(/\/api\/conversions\/pixel\.gif\?c=/);
    expect(pixel.script_url).toMatch(/\/api\/conversions\/pixel\.js\?c=/);
  });
});
