import { DataSource } from 'typeorm';
import { CampaignIndexService } from '@/campaign-index/campaign-index.service';
import {
  type ServableCampaign,
  ServableCampaignsReader,
} from '@/campaigns/campaigns/servable-campaigns.reader';
import { sqlDatetime } from '@/common/clock';
import { buildDataSourceOptions } from '@/database/data-source-options';
import { newId } from '@/database/columns';
import { ENTITIES } from '@/entities';
import { MIGRATIONS } from '../../../migrations';
import { KeywordTranslations1764600000000 } from '../../../migrations/1764600000000-keyword-translations';
import type { SignedIn } from '@test/factories';
import { body, campaignCalls, type Json, operatorWithAdvertiser } from '@test/support/operator-api';
import { expectProblem } from '@test/support/problem';
import { startTestApp, TestApp } from '@test/support/test-app';
import { createTestDatabase, testDatabaseKind } from '@test/support/test-database';

describe(`operator API: keyword translations of a campaign (${testDatabaseKind()})`, () => {
  let t: TestApp;
  let operator: SignedIn;
  let advertiserId: string;

  beforeAll(async () => {
    t = await startTestApp();
    ({ operator, advertiserId } = await operatorWithAdvertiser(t));
  });
  afterAll(() => t.close());

  const { campaignBody, create, patch } = campaignCalls(() => ({ t, operator, advertiserId }));
  const read = async (id: unknown) =>
    body(await operator.api('GET', `/api/admin/campaigns/${String(id)}`), 200);
  const auditOf = async (id: unknown) =>
    body(await operator.api('GET', `/api/admin/campaigns/${String(id)}/audit`), 200);
  const campaignCount = async () =>
    (await body(await operator.api('GET', '/api/admin/campaigns?per_page=1'), 200)).total;
  /** The campaign as the snapshot that the live index is built from carries it. */
  const snapshotOf = async (id: unknown): Promise<ServableCampaign | undefined> => {
    const found: ServableCampaign[] = [];
    await t.app.get(ServableCampaignsReader).readServable(new Date(), (batch) => {
      found.push(...batch.filter((campaign) => campaign.id === id));
      return Promise.resolve();
    });
    return found[0];
  };
  const translationsError = (message: string) => [{ field: 'keyword_translations', message }];

  describe('creating and reading', () => {
    it('stores keys and phrases normalised and answers them on create, read and list', async () => {
      const created = await create({
        keywords: ['Learn Spanish', 'grammar'],
        keyword_translations: {
          'LEARN  spanish ': [
            "Apprendre l'Espagnol",
            'spanisch lernen',
            'SPANISCH LERNEN',
            'Learn Spanish',
            'ａｐｒｅｎｄｅｒ español',
          ],
        },
      });
      const expected = {
        'learn spanish': ["apprendre l'espagnol", 'spanisch lernen', 'aprender español'],
      };
      expect(created.keyword_translations).toEqual(expected);
      expect((await read(created.id)).keyword_translations).toEqual(expected);
      const listed = await body(
        await operator.api('GET', '/api/admin/campaigns?keyword=grammar&per_page=100'),
        200,
      );
      expect(listed.items).toContainEqual(
        expect.objectContaining({ id: created.id, keyword_translations: expected }),
      );
      expect((await snapshotOf(created.id))?.translations).toEqual(expected);
    });

    it('answers {} for a campaign created without translations, or with an empty list', async () => {
      expect((await create()).keyword_translations).toEqual({});
      const created = await create({ keywords: ['ai'], keyword_translations: { ai: [] } });
      expect(created.keyword_translations).toEqual({});
      expect((await read(created.id)).keyword_translations).toEqual({});
      expect((await snapshotOf(created.id))?.translations).toEqual({});
    });

    it('audits the translations of a new campaign in its creation entry', async () => {
      const created = await create({ keywords: ['ai'], keyword_translations: { ai: ['ki'] } });
      const [creation] = (await auditOf(created.id)).items as Json[];
      expect(creation.new_value).toMatchObject({ keyword_translations: { ai: ['ki'] } });
    });
  });

  describe('refused with 400 validation_failed, and nothing created', () => {
    const phrases = (count: number) => Array.from({ length: count }, (_, i) => `phrase ${i}`);
    const keywords = Array.from({ length: 21 }, (_, k) => `keyword ${k}`);

    it.each([
      [
        'a key that is not a keyword',
        { 'learn french': ['apprendre le français'] },
        'keyword_translations has the key "learn french", which is not a keyword of the campaign',
      ],
      [
        'a list instead of an object',
        [['keyword 0', ['x']]],
        'keyword_translations must be an object whose keys are keywords of the campaign and whose values are lists of phrases',
      ],
      [
        'null',
        null,
        'keyword_translations must be an object whose keys are keywords of the campaign and whose values are lists of phrases',
      ],
      [
        'a phrase that is not in a list',
        { 'keyword 0': 'x' },
        'keyword_translations must map each keyword to a list of phrases (strings): "keyword 0" does not',
      ],
      [
        'a phrase that is not a string',
        { 'keyword 0': ['x', 1] },
        'keyword_translations must map each keyword to a list of phrases (strings): "keyword 0" does not',
      ],
      [
        'a phrase empty once normalised',
        { 'keyword 0': ['x', '\u3000 '] },
        'keyword_translations has an empty phrase for "keyword 0"',
      ],
      [
        'a phrase longer than a keyword may be',
        { 'keyword 0': ['x'.repeat(101)] },
        'keyword_translations has a phrase longer than 100 characters for "keyword 0"',
      ],
      [
        '11 phrases for one keyword',
        { 'keyword 0': phrases(11) },
        'keyword_translations has 11 phrases for "keyword 0"; at most 10 per keyword',
      ],
      [
        '201 phrases in all',
        Object.fromEntries(keywords.map((k, i) => [k, i === 20 ? ['one more'] : phrases(10)])),
        'keyword_translations has 201 phrases; at most 200 per campaign',
      ],
    ])('%s', async (_case, keywordTranslations, message) => {
      const before = await campaignCount();
      const problem = await expectProblem(
        await operator.api(
          'POST',
          '/api/admin/campaigns',
          campaignBody({ keywords, keyword_translations: keywordTranslations }),
        ),
        400,
        'validation_failed',
      );
      expect(problem.errors).toEqual(translationsError(message));
      expect(await campaignCount()).toBe(before);
    });

    it('a map too large to store, though every phrase is within its limits', async () => {
      // 12 keywords × 10 phrases of 100 three-byte characters: ~39 KB of UTF-8 JSON.
      const cjk = Array.from({ length: 12 }, (_, k) => String.fromCharCode(0x4e00 + k).repeat(3));
      const translations = Object.fromEntries(
        cjk.map((keyword) => [
          keyword,
          Array.from({ length: 10 }, (_, i) => String.fromCharCode(0x5000 + i).repeat(100)),
        ]),
      );
      const before = await campaignCount();
      const problem = await expectProblem(
        await operator.api(
          'POST',
          '/api/admin/campaigns',
          campaignBody({ keywords: cjk, keyword_translations: translations }),
        ),
        400,
        'validation_failed',
      );
      expect(problem.errors).toEqual([
        {
          field: 'keyword_translations',
          message: expect.stringMatching(
            /^keyword_translations takes \d+ bytes as JSON; at most 32768/,
          ),
        },
      ]);
      expect(await campaignCount()).toBe(before);
    });

    it('accepts the most the rules allow: 10 phrases for each of 20 keywords', async () => {
      const twenty = keywords.slice(0, 20);
      const translations = Object.fromEntries(
        twenty.map((k) => [k, phrases(10).map((p) => `${p} `.padEnd(100, 'x'))]),
      );
      const created = await create({ keywords: twenty, keyword_translations: translations });
      expect(created.keyword_translations).toEqual(translations);
    });
  });

  describe('changing them', () => {
    const learnSpanish = { 'learn spanish': ['aprender español', 'spanisch lernen'] };
    const grammar = { grammar: ['grammaire', 'grammatik'] };
    const withBoth = () =>
      create({
        keywords: ['learn spanish', 'grammar'],
        keyword_translations: { ...learnSpanish, ...grammar },
      });

    it('a PATCH of keywords alone keeps the translations of the remaining keywords', async () => {
      const created = await withBoth();
      const updated = await body(await patch(created.id, { keywords: ['Grammar', 'verbs'] }), 200);
      expect(updated.keyword_translations).toEqual(grammar);
      expect((await read(created.id)).keyword_translations).toEqual(grammar);
      const [dropped] = ((await auditOf(created.id)).items as Json[]).filter(
        (entry) => entry.field === 'keyword_translations',
      );
      expect(dropped).toMatchObject({
        old_value: { ...learnSpanish, ...grammar },
        new_value: grammar,
      });
    });

    it('a PATCH of both holds the translations against the new keywords', async () => {
      const created = await withBoth();
      const refused = await expectProblem(
        await patch(created.id, { keywords: ['verbs'], keyword_translations: grammar }),
        400,
        'validation_failed',
      );
      expect(refused.errors).toEqual(
        translationsError(
          'keyword_translations has the key "grammar", which is not a keyword of the campaign',
        ),
      );
      expect(await read(created.id)).toEqual({ ...created, pixel: expect.any(Object) });
      const verbs = { verbs: ['verbes', 'verben'] };
      const updated = await body(
        await patch(created.id, { keywords: ['verbs'], keyword_translations: verbs }),
        200,
      );
      expect(updated).toMatchObject({ keywords: ['verbs'], keyword_translations: verbs });
    });

    it('a PATCH of translations alone replaces the whole map, and {} clears it', async () => {
      const created = await withBoth();
      const replaced = await body(
        await patch(created.id, { keyword_translations: { Grammar: ['GRAMÁTICA'] } }),
        200,
      );
      expect(replaced.keyword_translations).toEqual({ grammar: ['gramática'] });
      const cleared = await body(await patch(created.id, { keyword_translations: {} }), 200);
      expect(cleared.keyword_translations).toEqual({});
      expect((await read(created.id)).keyword_translations).toEqual({});
      expect((await snapshotOf(created.id))?.translations).toEqual({});
    });

    it('a refused PATCH changes nothing and writes no audit entry', async () => {
      const created = await withBoth();
      const audited = (await auditOf(created.id)).total;
      for (const keywordTranslations of [{ 'learn french': ['x'] }, { grammar: [''] }, null]) {
        await expectProblem(
          await patch(created.id, { keyword_translations: keywordTranslations }),
          400,
          'validation_failed',
        );
      }
      expect(await read(created.id)).toEqual({ ...created, pixel: expect.any(Object) });
      expect((await auditOf(created.id)).total).toBe(audited);
    });

    it('a PATCH of translations alone is audited and reaches the live index at once', async () => {
      const created = await create({ keywords: ['learn spanish'] });
      const index = t.app.get(CampaignIndexService);
      const reader = t.app.get(ServableCampaignsReader);
      const built = index.current;
      const probed = await reader.probe(new Date());

      await body(await patch(created.id, { keyword_translations: learnSpanish }), 200);

      // Rebuilt before the answer here; other instances' periodic refresh sees the probe move.
      expect(index.current).not.toBe(built);
      expect(await reader.probe(new Date())).not.toEqual(probed);
      expect((await snapshotOf(created.id))?.translations).toEqual(learnSpanish);
      const [entry] = (await auditOf(created.id)).items as Json[];
      expect(entry).toMatchObject({
        field: 'keyword_translations',
        old_value: {},
        new_value: learnSpanish,
      });
    });

    it('the same map sent again, keys in another order, is no change', async () => {
      const created = await withBoth();
      const audited = (await auditOf(created.id)).total;
      const built = t.app.get(CampaignIndexService).current;
      const same = await body(
        await patch(created.id, { keyword_translations: { ...grammar, ...learnSpanish } }),
        200,
      );
      expect(same.keyword_translations).toEqual(created.keyword_translations);
      expect((await auditOf(created.id)).total).toBe(audited);
      expect(t.app.get(CampaignIndexService).current).toBe(built);
    });
  });

  describe('a campaign saved before translations existed', () => {
    it('reads as {} once the migration has run, and is still served', async () => {
      const db = await createTestDatabase();
      const mine = MIGRATIONS.indexOf(KeywordTranslations1764600000000);
      const older = new DataSource({
        ...buildDataSourceOptions(db.config, ENTITIES),
        migrations: MIGRATIONS.slice(0, mine),
      });
      await older.initialize();
      await older.runMigrations();
      const [advertiser, campaign, now] = [newId(), newId(), sqlDatetime(new Date())];
      await older.query(
        `INSERT INTO advertisers (id, name, contact_email, status, created_at, updated_at)
         VALUES (?, 'Old', NULL, 'active', ?, ?)`,
        [advertiser, now, now],
      );
      await older.query(
        `INSERT INTO campaigns (id, advertiser_id, name, text, image_url, target_url, keywords,
                                countries, devices, bid_micros, budget_total_micros,
                                budget_daily_micros, spent_micros, spent_today_micros, spent_day,
                                starts_at, ends_at, status, created_at, updated_at)
         VALUES (?, ?, 'Old boots', 'Old boots.', NULL, 'https://shop.example/old', '["old boots"]',
                 '[]', '[]', 350000, NULL, NULL, 0, 0, NULL, NULL, NULL, 'active', ?, ?)`,
        [campaign, advertiser, now, now],
      );
      await older.destroy();

      const upgraded = await startTestApp({}, { database: db });
      try {
        const admin = await upgraded.f.operator();
        const answer = await body(await admin.api('GET', `/api/admin/campaigns/${campaign}`), 200);
        expect(answer).toMatchObject({ keywords: ['old boots'], keyword_translations: {} });
        const { key } = await upgraded.f.publisherWithKey();
        const served = await upgraded.fetchAds(key, {
          conversation: 'hello',
          context_keywords: 'old boots',
        });
        expect(served.status).toBe(200);
        const changed = await body(
          await admin.api('PATCH', `/api/admin/campaigns/${campaign}`, {
            keyword_translations: { 'old boots': ['alte stiefel'] },
          }),
          200,
        );
        expect(changed.keyword_translations).toEqual({ 'old boots': ['alte stiefel'] });
      } finally {
        await upgraded.close();
        await db.drop();
      }
    });
  });
});
