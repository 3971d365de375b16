import { ValidationPipe } from '@nestjs/common';
import { newId } from '@/database/columns';
import { ApiKey } from '@/publishers/entities/api-key.entity';
import { Impression } from '@/tracking/entities/impression.entity';
import { ImpressionWriter } from '@/tracking/impression-writer.service';
import { impressionsOf, laptopChat } from '@test/support/ads';
import { expectProblem } from '@test/support/problem';
import { startTestApp, TestApp } from '@test/support/test-app';
import { testDatabaseKind } from '@test/support/test-database';

describe(`POST /api/fetch-ads (${testDatabaseKind()})`, () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  describe('when an ad matches', () => {
    it('reads a plainly valid body through its compiled check, not class-validator; a bad one still through the rules', async () => {
      const { key } = await t.f.publisherWithKey();
      // A keyword of its own: the other tests here share the database.
      await t.f.campaign({ keywords: 'zephyrine' });
      const rules = jest.spyOn(ValidationPipe.prototype, 'transform');
      try {
        const bodies = () => rules.mock.calls.filter(([, metadata]) => metadata.type === 'body');
        expect(
          (await t.fetchAds(key, { conversation: 'A zephyrine?', context_keywords: 'zephyrine' }))
            .status,
        ).toBe(200);
        expect(bodies()).toHaveLength(0);
        const bad = await t.fetchAds(key, { conversation: 'hi', context_keywords: 7 });
        await expectProblem(bad, 400, 'validation_failed');
        expect(bodies()).toHaveLength(1);
      } finally {
        rules.mockRestore();
      }
    });

    it('answers 200 with one ad carrying every SPEC field and records one impression for the calling model', async () => {
      const { key, model } = await t.f.publisherWithKey();
      const campaign = await t.f.campaign({
        keywords: 'ultrabook, travel laptop',
        bid: '0.35',
        name: 'Feather Laptops',
        text: 'The lightest ultrabook ever made.',
        imageUrl: 'https://cdn.advertiser.example/feather.png',
        targetUrl: 'https://advertiser.example/feather?ref=ai',
      });

      const response = await t.fetchAds(key, laptopChat('Ultrabook, battery'));

      expect(response.status).toBe(200);
      expect(response.headers.get('x-request-id')).toBeTruthy();
      const body = (await response.json()) as { advertisements: Record<string, unknown>[] };
      expect(body.advertisements).toHaveLength(1);
      const ad = body.advertisements[0];
      expect(ad).toMatchObject({
        campaign_name: 'Feather Laptops',
        campaign_text: 'The lightest ultrabook ever made.',
        campaign_image: 'https://cdn.advertiser.example/feather.png',
        bid_per_click: 0.35,
      });
      const link = new URL(ad.campaign_link as string);
      expect(`${link.origin}${link.pathname}`).toBe(`${t.baseUrl}/api/campaign_click`);
      expect(link.searchParams.get('campaign_id')).toBe(campaign.id);
      expect(link.searchParams.get('model_id')).toBe(model.id);
      expect(link.searchParams.get('targetLink')).toBe('https://advertiser.example/feather?ref=ai');
      expect(ad.campaign_link).toContain(
        `targetLink=${encodeURIComponent('https://advertiser.example/feather?ref=ai')}`,
      );
      const markdown = ad.campaign_markdown as string;
      expect(markdown).toContain('**The lightest ultrabook ever made\\.**');
      expect(markdown).toContain(`](${ad.campaign_link as string})`);
      expect(markdown).toContain('![Feather Laptops](https://cdn.advertiser.example/feather.png)');
      expect(markdown).toContain('Sponsored · Adline');
      expect(await impressionsOf(t, model.id)).toBe(1);
    });

    it('leaves campaign_image out when the campaign has no image', async () => {
      const { key } = await t.f.publisherWithKey();
      await t.f.campaign({ keywords: 'espresso machine', imageUrl: null });
      const body = (await (await t.fetchAds(key, laptopChat('espresso machine'))).json()) as {
        advertisements: Record<string, unknown>[];
      };
      expect(body.advertisements[0]).not.toHaveProperty('campaign_image');
      expect(body.advertisements[0].campaign_markdown).not.toContain('![');
    });

    it('serves the most relevant campaign for its bid, not just the highest bid', async () => {
      const { key } = await t.f.publisherWithKey();
      await t.f.campaign({
        keywords: 'camera, lens, tripod, photo, flash',
        bid: '0.60',
        name: 'Broad camera shop',
      });
      await t.f.campaign({ keywords: 'tripod', bid: '0.40', name: 'Tripod specialist' });
      const body = (await (await t.fetchAds(key, laptopChat('tripod'))).json()) as {
        advertisements: { campaign_name: string }[];
      };
      expect(body.advertisements[0].campaign_name).toBe('Tripod specialist');
    });

    it('stores the conversation cut to CONVERSATION_MAX_CHARS with the request context', async () => {
      const { key, model } = await t.f.publisherWithKey();
      await t.f.campaign({ keywords: 'kayak' });
      const conversation = 'x'.repeat(t.config.conversationMaxChars + 500);
      const response = await t.fetchAds(key, {
        conversation,
        context_keywords: ' KAYAK ',
        user_location: 'Paris, France',
        user_device_info: 'mobile',
      });
      expect(response.status).toBe(200);
      const stored = await t.dataSource
        .getRepository(Impression)
        .findOneByOrFail({ modelId: model.id });
      expect(stored.conversation).toHaveLength(t.config.conversationMaxChars);
      expect(stored).toMatchObject({
        keywords: 'kayak',
        country: 'FR',
        device: 'mobile',
        bidMicros: 500000,
      });
    });

    it('writes the impressions of concurrent requests in shared batches, losing none', async () => {
      const { key, model } = await t.f.publisherWithKey();
      await t.f.campaign({ keywords: 'skateboard' });
      const writer = t.app.get(ImpressionWriter);
      const before = { ...writer.stats };
      const responses = await Promise.all(
        Array.from({ length: 40 }, () => t.fetchAds(key, laptopChat('skateboard'))),
      );
      expect(responses.map((r) => r.status)).toEqual(Array(40).fill(200));
      expect(await impressionsOf(t, model.id)).toBe(40);
      expect(writer.stats.rows - before.rows).toBe(40);
      expect(writer.stats.batches - before.batches).toBeLessThan(40);
    });

    it('keeps writing after a batch with a bad row: only that row fails, nothing is left open', async () => {
      const { model, publisher } = await t.f.publisherWithKey();
      const c = await t.f.campaign({ keywords: 'surfwax' });
      const writer = t.app.get(ImpressionWriter);
      const impression = (modelId: string | null): Impression => ({
        id: newId(),
        createdAt: new Date(),
        modelId: modelId as string,
        publisherId: publisher.id,
        campaignId: c.id,
        apiKeyId: null,
        bidMicros: 500_000,
        revenueSharePpm: 700_000,
        country: null,
        device: null,
        userLocation: null,
        userDeviceInfo: null,
        keywords: 'surfwax',
        conversation: 'Which wax for cold water?',
        clickedAt: null,
        test: false,
        relevancePpm: null,
        matched: null,
        campaignTargets: null,
      });
      // A row the schema refuses (no model) in the middle of a batch of good ones.
      const outcomes = await Promise.allSettled(
        [model.id, model.id, null, model.id].map((id) => writer.record(impression(id))),
      );
      expect(outcomes.map((o) => o.status)).toEqual([
        'fulfilled',
        'fulfilled',
        'rejected',
        'fulfilled',
      ]);
      expect(await impressionsOf(t, model.id)).toBe(3);
      await writer.record(impression(model.id));
      expect(await impressionsOf(t, model.id)).toBe(4);
      const [{ impressions }] = await t.dataSource.query<{ impressions: number | string }[]>(
        'SELECT SUM(impressions) AS impressions FROM daily_stats WHERE model_id = ?',
        [model.id],
      );
      expect(Number(impressions)).toBe(4);
    });

    it('serves a known key from memory without reading the database again', async () => {
      const { key, keyId } = await t.f.publisherWithKey();
      await t.f.campaign({ keywords: 'surfboard' });
      expect((await t.fetchAds(key, laptopChat('surfboard'))).status).toBe(200);
      // Change the row behind the service's back: a cached key does not notice...
      await t.dataSource.query(`UPDATE api_keys SET status = 'revoked' WHERE id = '${keyId}'`);
      expect((await t.fetchAds(key, laptopChat('surfboard'))).status).toBe(200);
      // ...while a revoke through the service takes effect at once (tested below).
    });

    it('reads a key that is not cached once for many simultaneous calls', async () => {
      const { key } = await t.f.publisherWithKey();
      await t.f.campaign({ keywords: 'wetsuit' });
      const reads = jest.spyOn(t.dataSource.getRepository(ApiKey), 'findOne');
      try {
        const responses = await Promise.all(
          Array.from({ length: 25 }, () => t.fetchAds(key, laptopChat('wetsuit'))),
        );
        expect(responses.map((r) => r.status)).toEqual(Array(25).fill(200));
        expect(reads).toHaveBeenCalledTimes(1);
      } finally {
        reads.mockRestore();
      }
    });

    it('ignores unknown fields in the body', async () => {
      const { key } = await t.f.publisherWithKey();
      await t.f.campaign({ keywords: 'snowboard' });
      expect(
        (await t.fetchAds(key, laptopChat('snowboard', { debug: true, extra: { a: 1 } }))).status,
      ).toBe(200);
    });
  });

  describe('targeting and eligibility', () => {
    it('serves a geo-targeted campaign only to requests that show its country', async () => {
      const { key } = await t.f.publisherWithKey();
      await t.f.campaign({ keywords: 'bratwurst', countries: ['DE'] });
      expect(
        (await t.fetchAds(key, laptopChat('bratwurst', { user_location: 'Berlin, Germany' })))
          .status,
      ).toBe(200);
      expect((await t.fetchAds(key, laptopChat('bratwurst', { user_location: 'DE' }))).status).toBe(
        200,
      );
      await expectProblem(
        await t.fetchAds(key, laptopChat('bratwurst', { user_location: 'Lyon, France' })),
        404,
        'no_matching_ad',
      );
      await expectProblem(await t.fetchAds(key, laptopChat('bratwurst')), 404, 'no_matching_ad');
    });

    it('serves a device-targeted campaign only to that device, given as a word or a user agent', async () => {
      const { key } = await t.f.publisherWithKey();
      await t.f.campaign({ keywords: 'ringtone', devices: ['mobile'] });
      const iphone =
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
      const windows =
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
      expect(
        (await t.fetchAds(key, laptopChat('ringtone', { user_device_info: iphone }))).status,
      ).toBe(200);
      expect(
        (await t.fetchAds(key, laptopChat('ringtone', { user_device_info: 'mobile' }))).status,
      ).toBe(200);
      await expectProblem(
        await t.fetchAds(key, laptopChat('ringtone', { user_device_info: windows })),
        404,
        'no_matching_ad',
      );
    });

    it('never serves a paused campaign, nor one outside its schedule', async () => {
      const { key } = await t.f.publisherWithKey();
      await t.f.campaign({ keywords: 'trampoline', status: 'paused' });
      await t.f.campaign({ keywords: 'trampoline', startsAt: new Date(Date.now() + 86_400_000) });
      await t.f.campaign({ keywords: 'trampoline', endsAt: new Date(Date.now() - 1000) });
      await expectProblem(await t.fetchAds(key, laptopChat('trampoline')), 404, 'no_matching_ad');
    });
  });
});
