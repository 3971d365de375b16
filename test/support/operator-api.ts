import type { SignedIn } from '../factories';
import type { TestApp } from './test-app';

export type Json = Record<string, unknown>;

/** A response's JSON body; checks its status first when one is given. */
export async function body(response: Response, status?: number): Promise<Json> {
  if (status !== undefined) expect(response.status).toBe(status);
  return (await response.json()) as Json;
}

/** An operator signed in through the API, and an advertiser ("Acme") the suite's campaigns share. */
export async function operatorWithAdvertiser(
  t: TestApp,
): Promise<{ operator: SignedIn; advertiserId: string }> {
  const operator = await t.f.operator();
  const advertiserId = (
    await body(await operator.api('POST', '/api/admin/advertisers', { name: 'Acme' }))
  ).id as string;
  return { operator, advertiserId };
}

/**
 * Calls on the operator's campaign routes. `suite` is called when a helper runs, so the
 * suite can sign in in `beforeAll` and take these helpers at the top of its `describe`.
 */
export function campaignCalls(
  suite: () => { t: TestApp; operator: SignedIn; advertiserId: string },
) {
  let n = 0;
  /** A valid create body for a campaign of the shared advertiser; `overrides` replace fields. */
  const campaignBody = (overrides: Json = {}): Json => ({
    advertiser_id: suite().advertiserId,
    name: `Campaign ${++n}`,
    text: 'Waterproof boots.',
    target_url: `https://shop.example/offer/${n}`,
    keywords: [`keyword${n}`],
    bid_per_click: 0.35,
    ...overrides,
  });

  const create = async (overrides: Json = {}) =>
    body(await suite().operator.api('POST', '/api/admin/campaigns', campaignBody(overrides)), 201);
  const patch = (id: unknown, changes: Json) =>
    suite().operator.api('PATCH', `/api/admin/campaigns/${String(id)}`, changes);
  const fetchAd = async (key: string, keywords: string) =>
    suite().t.fetchAds(key, { conversation: 'hello', context_keywords: keywords });

  return { campaignBody, create, patch, fetchAd };
}

/**
 * A report row's view and conversion figures when no view_url was called and no conversion
 * posted. ROAS is left to the caller: 0 when the row has spend, null when it has none.
 */
export const NOTHING_MEASURED = {
  viewed_impressions: 0,
  view_rate: 0,
  conversions: 0,
  conversions_by_event: {},
  conversion_rate: 0,
  conversion_value: 0,
  cost_per_conversion: null,
  conversions_received: 0,
};
