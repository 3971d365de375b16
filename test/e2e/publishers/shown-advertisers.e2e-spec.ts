import { AdvertisersService } from '@/campaigns/advertisers/advertisers.service';
import { laptopChat } from '@test/support/ads';
import { body } from '@test/support/operator-api';
import { expectProblem } from '@test/support/problem';
import { startTestApp, TestApp } from '@test/support/test-app';
import { testDatabaseKind } from '@test/support/test-database';

describe(`GET /api/advertisers/shown: the advertisers a publisher can block by name (${testDatabaseKind()})`, () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  /** An advertiser with one campaign on a keyword of its own. */
  async function advertiserWithCampaign(name: string, keyword: string) {
    const advertiser = await t.app.get(AdvertisersService).create(name);
    await t.f.campaign({ advertiserId: advertiser.id, keywords: keyword });
    return advertiser;
  }

  const serve = async (key: string, keyword: string) =>
    expect((await t.fetchAds(key, laptopChat(keyword))).status).toBe(200);

  it('lists, by name, every advertiser whose ad a model of the publisher was served (live or test key), and no other', async () => {
    const me = await t.f.signedInPublisher();
    const second = await body(await me.api('POST', '/api/models', { name: 'Second' }), 201);
    const stranger = await t.f.publisherWithKey();
    const zephyr = await advertiserWithCampaign('Zephyr Outdoor', 'tent');
    const acme = await advertiserWithCampaign('Acme Coffee', 'espresso');
    await advertiserWithCampaign('Never Shown Ltd', 'kayak');
    const theirs = await advertiserWithCampaign('Only Theirs Inc', 'bicycle');

    expect(await body(await me.api('GET', '/api/advertisers/shown'), 200)).toEqual([]);

    await serve(me.key, 'tent'); // the factory's key is a test key
    await serve(await t.f.apiKey(second.id as string), 'espresso');
    await serve(stranger.key, 'bicycle');
    await serve(stranger.key, 'tent');

    expect(await body(await me.api('GET', '/api/advertisers/shown'), 200)).toEqual([
      { id: acme.id, name: 'Acme Coffee' },
      { id: zephyr.id, name: 'Zephyr Outdoor' },
    ]);
    const strangerSees = await (
      await t.f.signIn(stranger.publisher)
    ).api('GET', '/api/advertisers/shown');
    expect(await body(strangerSees, 200)).toEqual([
      { id: theirs.id, name: 'Only Theirs Inc' },
      { id: zephyr.id, name: 'Zephyr Outdoor' },
    ]);

    // Blocking an advertiser takes its id from this list; it stays listed once blocked.
    const controls = {
      blocked_categories: [],
      blocked_advertisers: [zephyr.id],
      blocked_keywords: [],
      relevance_floor: 0,
      frequency_cap: null,
    };
    await body(await me.api('PUT', `/api/models/${me.model.id}/controls`, controls), 200);
    await expectProblem(await t.fetchAds(me.key, laptopChat('tent')), 404, 'no_matching_ad');
    const listed = (await (await me.api('GET', '/api/advertisers/shown')).json()) as {
      name: string;
    }[];
    expect(listed.map((advertiser) => advertiser.name)).toEqual(['Acme Coffee', 'Zephyr Outdoor']);
  });

  it('answers 401 without a session', async () => {
    await expectProblem(await t.http('/api/advertisers/shown'), 401, 'unauthorized');
  });
});
