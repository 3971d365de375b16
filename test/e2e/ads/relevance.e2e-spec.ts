import { evaluate, holdsFloor, type LanguageScore } from '../../../bench/relevance/evaluate';
import {
  type LabelledSet,
  loadLabelledSet,
  SET_LANGUAGES,
} from '../../../bench/relevance/labelled-set';
import { matcherServer } from '../../../bench/relevance/matcher-server';
import type { SignedIn } from '@test/factories';
import { body } from '@test/support/operator-api';
import { startTestApp, TestApp } from '@test/support/test-app';
import { testDatabaseKind } from '@test/support/test-database';

/**
 * The labelled relevance set served by the real service: the catalog created through the
 * operator API (keywords and translations as operators enter them), every conversation sent
 * to fetch-ads with its keywords. The service must answer what the matcher answers in
 * process (`npm run relevance` reports those figures) and hold the recorded floor.
 */
describe(`relevance on the labelled set, through fetch-ads (${testDatabaseKind()})`, () => {
  let t: TestApp;
  let key: string;
  let operator: SignedIn;
  let set: LabelledSet;
  /** Campaign id in the service → id in the set. */
  const setIdOf = new Map<string, string>();

  beforeAll(async () => {
    t = await startTestApp();
    ({ key } = await t.f.publisherWithKey());
    operator = await t.f.signedInAdmin();
    set = loadLabelledSet();
    const advertisers = new Map<string, string>();
    for (const campaign of set.campaigns) {
      let advertiserId = advertisers.get(campaign.advertiser);
      if (advertiserId === undefined) {
        const created = await operator.api('POST', '/api/admin/advertisers', {
          name: campaign.advertiser,
        });
        advertiserId = (await body(created, 201)).id as string;
        advertisers.set(campaign.advertiser, advertiserId);
      }
      const created = await operator.api('POST', '/api/admin/campaigns', {
        advertiser_id: advertiserId,
        name: campaign.name,
        text: campaign.text,
        target_url: campaign.target_url,
        keywords: campaign.keywords,
        keyword_translations: campaign.keyword_translations ?? {},
        bid_per_click: campaign.bid_per_click,
      });
      setIdOf.set((await body(created, 201)).id as string, campaign.id);
    }
  }, 60_000);
  afterAll(() => t.close());

  let served: LanguageScore[];
  const answers = new Map<string, string | null>();

  it('serves every conversation as the in-process matcher does', async () => {
    served = await evaluate(set, async (_language, conversation) => {
      const response = await t.fetchAds(key, {
        conversation: conversation.conversation,
        context_keywords: conversation.keywords.join(', '),
      });
      let answer: string | null = null;
      if (response.status === 200) {
        const { advertisements } = (await response.json()) as {
          advertisements: { campaign_link: string }[];
        };
        const campaignId = new URL(advertisements[0].campaign_link).searchParams.get('campaign_id');
        answer = setIdOf.get(campaignId ?? '') ?? 'unknown campaign';
      } else {
        expect(response.status).toBe(404);
      }
      answers.set(conversation.id, answer);
      return answer;
    });
    const inProcess = matcherServer(set);
    for (const language of SET_LANGUAGES) {
      for (const conversation of set.conversations[language]) {
        expect([conversation.id, answers.get(conversation.id)]).toEqual([
          conversation.id,
          await inProcess(language, conversation),
        ]);
      }
    }
  }, 120_000);

  it.each(SET_LANGUAGES)(
    'holds the recorded floor in %s (test/fixtures/relevance/floor.json)',
    (language) => {
      const score = served.find((s) => s.language === language)!;
      const floor = set.floors[language];
      expect(score.precision).toBeGreaterThanOrEqual(floor.precision);
      expect(score.rightFill).toBeGreaterThanOrEqual(floor.rightFill);
      expect(score.falseFillRate).toBeLessThanOrEqual(floor.falseFills);
      expect(holdsFloor(score, set.floors)).toBe(true);
    },
  );
});
