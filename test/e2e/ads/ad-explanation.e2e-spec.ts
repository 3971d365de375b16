import { Impression } from '@/tracking/entities/impression.entity';
import { ReceiptSigner } from '@/tracking/explanation/receipt-signer';
import type { SignedIn } from '@test/factories';
import { expectProblem } from '@test/support/problem';
import { startTestApp, TestApp } from '@test/support/test-app';
import { testDatabaseKind } from '@test/support/test-database';

interface Explanation {
  matched_keywords: { keyword: string; source: string }[];
  targeting: {
    country: string | null;
    device: string | null;
    campaign_countries: string[];
    campaign_devices: string[];
  };
  relevance: number;
  bid: number;
  score: number;
}

interface Ad {
  campaign_name: string;
  bid_per_click: number;
  receipt: string;
  explanation?: Explanation;
}

const RECEIPT = /^[0-9a-f-]{36}\.[A-Za-z0-9_-]{12}$/;

/** A keyword met as written: every word of it exactly, no translation. */
const asWritten = (keyword: string, source: 'context_keywords' | 'conversation') => ({
  keyword,
  source,
  match: 'exact',
  words: keyword.split(' ').map((word) => ({ word, match: 'exact' })),
  translation: null,
});

describe(`fetch-ads: why this ad, and its receipt (${testDatabaseKind()})`, () => {
  let t: TestApp;
  let key: string;
  let operator: SignedIn;

  beforeAll(async () => {
    t = await startTestApp();
    ({ key } = await t.f.publisherWithKey());
    operator = await t.f.signedInAdmin();
  });
  afterAll(() => t.close());

  /**
   * A campaign of three keywords no other campaign has (so they weigh alike), a request
   * sending the first and talking about the second: relevance (1 + ½) / 3.
   */
  async function servedWithExplanation(name: string, extra: Record<string, unknown> = {}) {
    const campaign = await t.f.campaign({
      name,
      keywords: `${name} tent, ${name} stove, ${name} lantern`,
      bid: '0.40',
      countries: ['DE', 'AT'],
      devices: ['desktop'],
    });
    const response = await t.fetchAds(key, {
      conversation: `Which ${name} stove would you pack for a long weekend?`,
      context_keywords: `${name} tent, weekend`,
      user_location: 'Berlin, Germany',
      user_device_info: 'Windows laptop',
      ...extra,
    });
    expect(response.status).toBe(200);
    const [ad] = ((await response.json()) as { advertisements: Ad[] }).advertisements;
    return { campaign, ad };
  }

  let fjords = 0;

  const lookUp = (receipt: string, as: SignedIn = operator) =>
    as.api('GET', `/api/admin/receipts/${encodeURIComponent(receipt)}`);

  it('explains an ad with explain: true: the keywords and where each came from, the targeting, and relevance × bid', async () => {
    const { ad } = await servedWithExplanation('alpine', { explain: true });

    expect(ad.explanation).toEqual({
      matched_keywords: [
        asWritten('alpine tent', 'context_keywords'),
        asWritten('alpine stove', 'conversation'),
      ],
      targeting: {
        country: 'DE',
        device: 'desktop',
        campaign_countries: ['DE', 'AT'],
        campaign_devices: ['desktop'],
      },
      // Two of its three keywords, one of them at half weight (1.5 of 3); it explains one
      // of the two sent keywords, of equal weight (0.7 + 0.3 × 0.5).
      relevance: 0.425,
      bid: 0.4,
      score: 0.17,
    });
    const { relevance, bid, score } = ad.explanation!;
    expect(bid).toBe(ad.bid_per_click);
    expect(score).toBeCloseTo(relevance * bid, 6);
  });

  it('gives every ad a receipt, and an explanation only when asked for one', async () => {
    const { campaign, ad } = await servedWithExplanation('boreal');
    expect(ad).not.toHaveProperty('explanation');
    expect(ad.receipt).toMatch(RECEIPT);
    const impression = await t.dataSource
      .getRepository(Impression)
      .findOneByOrFail({ campaignId: campaign.id });
    expect(ad.receipt.split('.')[0]).toBe(impression.id);

    const { ad: notAsked } = await servedWithExplanation('coastal', { explain: false });
    expect(notAsked).not.toHaveProperty('explanation');
    expect(notAsked.receipt).toMatch(RECEIPT);
  });

  it('refuses an explain that is not a boolean', async () => {
    const response = await t.fetchAds(key, {
      conversation: 'Any advice?',
      context_keywords: 'tent',
      explain: 'yes',
    });
    const problem = await expectProblem(response, 400, 'validation_failed');
    expect(problem.errors?.map((e) => e.field)).toEqual(['explain']);
  });

  it("shows an operator the receipt's impression and the same explanation after the campaign changed", async () => {
    const { campaign, ad } = await servedWithExplanation('delta', { explain: true });
    const changed = await operator.api('PATCH', `/api/admin/campaigns/${campaign.id}`, {
      keywords: ['something else'],
      countries: ['FR'],
      devices: [],
      bid_per_click: 0.9,
    });
    expect(changed.status).toBe(200);

    const response = await lookUp(ad.receipt);

    expect(response.status).toBe(200);
    const receipt = (await response.json()) as Record<string, unknown>;
    const impression = await t.dataSource
      .getRepository(Impression)
      .findOneByOrFail({ campaignId: campaign.id });
    expect(receipt).toEqual({
      receipt: ad.receipt,
      impression_id: impression.id,
      campaign_id: campaign.id,
      campaign_name: 'delta',
      model_id: impression.modelId,
      publisher_id: impression.publisherId,
      served_at: impression.createdAt.toISOString(),
      test: false,
      explanation: ad.explanation,
    });
  });

  it('explains an ad served without explain: true on look-up too', async () => {
    const { ad } = await servedWithExplanation('estuary');
    const receipt = (await (await lookUp(ad.receipt)).json()) as { explanation: Explanation };
    const [sent, other] = receipt.explanation.matched_keywords;
    expect(sent).toEqual(asWritten('estuary tent', 'context_keywords'));
    // "estuary stove" stands whole in the conversation, and shares its rarer word with the
    // sent keyword: it is listed either way (which one counts more depends on the weights).
    expect(other.keyword).toBe('estuary stove');
    const { relevance, bid, score } = receipt.explanation;
    expect(relevance).toBeGreaterThan(0);
    expect(score).toBeCloseTo(relevance * bid, 6);
  });

  it.each([
    ['a changed signature', (r: string) => `${r.slice(0, -1)}${r.endsWith('A') ? 'B' : 'A'}`],
    [
      'another impression id',
      (r: string) => r.replace(/^[0-9a-f]/, (c) => (c === '0' ? '1' : '0')),
    ],
    ['no signature', (r: string) => r.split('.')[0]],
    ['not a receipt at all', () => 'why-am-i-seeing-this'],
  ])('answers 404 receipt_not_found for %s', async (_, tamper) => {
    const { ad } = await servedWithExplanation(`fjord${++fjords}`);
    await expectProblem(await lookUp(tamper(ad.receipt)), 404, 'receipt_not_found');
  });

  it('answers 404 receipt_not_found for a well-signed receipt of an impression that no longer exists', async () => {
    const receipt = t.app.get(ReceiptSigner).sign('019a8a3e-5b1c-7cc1-9d0e-3f2a1b4c5d6e');
    await expectProblem(await lookUp(receipt), 404, 'receipt_not_found');
  });

  it('refuses a publisher (403) and a caller without a session (401)', async () => {
    const { ad } = await servedWithExplanation('glacier');
    const publisher = await t.f.signedInPublisher();
    await expectProblem(await lookUp(ad.receipt, publisher), 403, 'forbidden');
    const anonymous = await t.http(`/api/admin/receipts/${ad.receipt}`);
    await expectProblem(anonymous, 401, 'unauthorized');
  });
});
