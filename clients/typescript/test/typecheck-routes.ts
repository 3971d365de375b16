/**
 * Every publisher and operator route of the generated types, called with a correct body and
 * parameters, WITHOUT a cast. It is compiled, not run (`tsc --noEmit -p
 * clients/typescript/tsconfig.json`, from `generated-types.spec.ts`): a route missing from
 * `everyManagementRoute`, a route that no longer exists, or a body that no longer fits the
 * OpenAPI document fails that compilation.
 */
import { createAdlineClient, type AdlineClient, type paths } from '../src';

type Method = 'get' | 'put' | 'post' | 'delete' | 'patch';
/** The methods a path has: openapi-typescript marks the others `?: never`. */
type MethodsOf<Path extends keyof paths> = {
  [M in Method]: paths[Path][M] extends undefined ? never : M;
}[Method];
/**
 * fetch-ads, the click link, the view URL, the conversion pixel, health and metrics are not
 * called by publishers or operators (a reader's browser or the publisher's backend calls them).
 */
type ManagementPath = Exclude<
  keyof paths,
  | '/api/fetch-ads'
  | '/api/campaign_click'
  | '/api/ad-views/{token}'
  | `/api/conversions/pixel.${string}`
  | `/health/${string}`
  | '/metrics'
>;
type EveryCall = {
  [Path in ManagementPath]: { [M in MethodsOf<Path>]: (client: AdlineClient) => Promise<unknown> };
};

const id = '0190b7a2-4f6e-7c1a-9d3e-5b8f2a6c4d10';
const period = { from: '2026-11-01', to: '2026-11-30' };

export const everyManagementRoute: EveryCall = {
  '/api/auth/register': {
    post: (c) =>
      c.POST('/api/auth/register', {
        body: { email: 'me@example.com', password: 'a long password', name: 'Me' },
      }),
  },
  '/api/auth/login': {
    post: (c) =>
      c.POST('/api/auth/login', { body: { email: 'me@example.com', password: 'a long password' } }),
  },
  '/api/auth/logout': { post: (c) => c.POST('/api/auth/logout') },
  '/api/publisher': { get: (c) => c.GET('/api/publisher') },
  '/api/models': {
    get: (c) => c.GET('/api/models'),
    post: (c) =>
      c.POST('/api/models', {
        body: {
          name: 'My assistant',
          description: 'Answers questions',
          link: 'https://me.example',
        },
      }),
  },
  '/api/advertisers/shown': { get: (c) => c.GET('/api/advertisers/shown') },
  '/api/models/{id}': {
    get: (c) => c.GET('/api/models/{id}', { params: { path: { id } } }),
    patch: (c) =>
      c.PATCH('/api/models/{id}', {
        params: { path: { id } },
        body: { name: 'Renamed', description: null, status: 'deactivated' },
      }),
  },
  '/api/models/{id}/controls': {
    put: (c) =>
      c.PUT('/api/models/{id}/controls', {
        params: { path: { id } },
        body: {
          blocked_categories: ['386', 'v9i3On'],
          blocked_advertisers: [id],
          blocked_keywords: ['casino'],
          relevance_floor: 0.3,
          frequency_cap: { max_ads: 3, per_minutes: 60 },
        },
      }),
  },
  '/api/models/{id}/keys': {
    get: (c) => c.GET('/api/models/{id}/keys', { params: { path: { id } } }),
    post: (c) =>
      c.POST('/api/models/{id}/keys', {
        params: { path: { id } },
        body: { label: 'staging', kind: 'test' },
      }),
  },
  '/api/models/{id}/keys/{keyId}': {
    delete: (c) =>
      c.DELETE('/api/models/{id}/keys/{keyId}', { params: { path: { id, keyId: id } } }),
  },
  '/api/stats': {
    get: (c) => c.GET('/api/stats', { params: { query: { ...period, model_id: id } } }),
  },
  '/api/admin/publishers': {
    get: (c) => c.GET('/api/admin/publishers', { params: { query: { page: 1, per_page: 50 } } }),
  },
  '/api/admin/publishers/{id}': {
    patch: (c) =>
      c.PATCH('/api/admin/publishers/{id}', {
        params: { path: { id } },
        body: { revenue_share: 0.7, status: 'suspended', reason: 'Invalid clicks' },
      }),
  },
  '/api/admin/publishers/{id}/models': {
    get: (c) => c.GET('/api/admin/publishers/{id}/models', { params: { path: { id } } }),
  },
  '/api/admin/publishers/{id}/audit': {
    get: (c) => c.GET('/api/admin/publishers/{id}/audit', { params: { path: { id } } }),
  },
  '/api/admin/models/{id}': {
    patch: (c) =>
      c.PATCH('/api/admin/models/{id}', {
        params: { path: { id } },
        body: { status: 'deactivated' },
      }),
  },
  '/api/admin/advertisers': {
    get: (c) =>
      c.GET('/api/admin/advertisers', { params: { query: { status: 'active', page: 2 } } }),
    post: (c) => c.POST('/api/admin/advertisers', { body: { name: 'Acme' } }),
  },
  '/api/admin/advertisers/{id}': {
    get: (c) => c.GET('/api/admin/advertisers/{id}', { params: { path: { id } } }),
    patch: (c) =>
      c.PATCH('/api/admin/advertisers/{id}', {
        params: { path: { id } },
        body: { name: 'Acme Inc.', status: 'inactive' },
      }),
  },
  '/api/admin/campaigns': {
    get: (c) =>
      c.GET('/api/admin/campaigns', {
        params: { query: { status: 'paused', advertiser_id: id, keyword: 'boots', per_page: 10 } },
      }),
    post: (c) =>
      c.POST('/api/admin/campaigns', {
        body: {
          advertiser_id: id,
          name: 'Boots',
          text: 'Waterproof boots.',
          target_url: 'https://shop.example/boots',
          keywords: ['hiking boots'],
          keyword_translations: { 'hiking boots': ['Wanderschuhe'] },
          bid_per_click: 0.35,
          budget_total: 100,
          budget_daily: 10,
          starts_at: '2026-11-01T00:00:00Z',
          ends_at: null,
          countries: ['DE'],
          devices: ['mobile', 'desktop'],
          status: 'paused',
          category: '483',
        },
      }),
  },
  '/api/admin/campaigns/{id}': {
    get: (c) => c.GET('/api/admin/campaigns/{id}', { params: { path: { id } } }),
    patch: (c) =>
      c.PATCH('/api/admin/campaigns/{id}', {
        params: { path: { id } },
        body: { bid_per_click: 0.4, budget_total: null, status: 'archived', category: null },
      }),
  },
  '/api/admin/campaigns/{id}/audit': {
    get: (c) =>
      c.GET('/api/admin/campaigns/{id}/audit', {
        params: { path: { id }, query: { page: 1, per_page: 20 } },
      }),
  },
  '/api/admin/campaigns/{id}/stats': {
    get: (c) =>
      c.GET('/api/admin/campaigns/{id}/stats', {
        params: { path: { id }, query: { ...period, format: 'json' } },
      }),
  },
  '/api/admin/reports/publishers': {
    get: (c) =>
      c.GET('/api/admin/reports/publishers', { params: { query: { ...period, format: 'csv' } } }),
  },
  '/api/admin/reports/models': {
    get: (c) => c.GET('/api/admin/reports/models', { params: { query: period } }),
  },
  '/api/auth/change-password': {
    post: (c) =>
      c.POST('/api/auth/change-password', {
        body: { current_password: 'a long password', new_password: 'a longer password' },
      }),
  },
  '/api/auth/forgot-password': {
    post: (c) => c.POST('/api/auth/forgot-password', { body: { email: 'me@example.com' } }),
  },
  '/api/auth/reset-password': {
    post: (c) =>
      c.POST('/api/auth/reset-password', {
        body: { token: 'a-token-from-the-mail', new_password: 'a longer password' },
      }),
  },
  '/api/auth/verify-email': {
    post: (c) => c.POST('/api/auth/verify-email', { body: { token: 'a-token-from-the-mail' } }),
  },
  '/api/auth/resend-verification': { post: (c) => c.POST('/api/auth/resend-verification') },
  '/api/publisher/balance': { get: (c) => c.GET('/api/publisher/balance') },
  '/api/publisher/payouts': { get: (c) => c.GET('/api/publisher/payouts') },
  '/api/stats/overview': { get: (c) => c.GET('/api/stats/overview') },
  '/api/stats/unbilled-clicks': {
    get: (c) => c.GET('/api/stats/unbilled-clicks', { params: { query: period } }),
  },
  '/api/admin/publishers/{id}/payouts': {
    get: (c) => c.GET('/api/admin/publishers/{id}/payouts', { params: { path: { id } } }),
    post: (c) =>
      c.POST('/api/admin/publishers/{id}/payouts', {
        params: { path: { id } },
        body: {
          amount: 120.5,
          period_start: '2026-10-01',
          period_end: '2026-10-31',
          method: 'bank_transfer',
          reference: 'SEPA-2026-10-0042',
        },
      }),
  },
  '/api/admin/payouts/{id}/void': {
    post: (c) =>
      c.POST('/api/admin/payouts/{id}/void', {
        params: { path: { id } },
        body: { reason: 'The transfer bounced.' },
      }),
  },
  '/api/admin/reports/payouts-due': { get: (c) => c.GET('/api/admin/reports/payouts-due') },
  '/api/admin/reports/balances': {
    get: (c) => c.GET('/api/admin/reports/balances', { params: { query: { format: 'json' } } }),
  },
  '/api/admin/advertisers/{id}/keys': {
    get: (c) => c.GET('/api/admin/advertisers/{id}/keys', { params: { path: { id } } }),
    post: (c) =>
      c.POST('/api/admin/advertisers/{id}/keys', {
        params: { path: { id } },
        body: { label: 'Shop backend' },
      }),
  },
  '/api/admin/advertisers/{id}/keys/{keyId}': {
    delete: (c) =>
      c.DELETE('/api/admin/advertisers/{id}/keys/{keyId}', {
        params: { path: { id, keyId: id } },
      }),
  },
  '/api/conversions': {
    post: (c) =>
      c.POST('/api/conversions', {
        body: {
          click_id: 'a-click-id-from-the-landing-url',
          event: 'purchase',
          event_id: 'order-10023',
          occurred_at: '2026-11-26T10:00:00Z',
          value: 49.9,
          currency: 'USD',
        },
      }),
  },
  '/api/admin/campaigns/{id}/try': {
    post: (c) =>
      c.POST('/api/admin/campaigns/{id}/try', {
        params: { path: { id } },
        body: { context_keywords: 'hiking boots', conversation: 'Which boots for the Alps?' },
      }),
  },
  '/api/admin/receipts/{receipt}': {
    get: (c) =>
      c.GET('/api/admin/receipts/{receipt}', { params: { path: { receipt: 'rcpt_example' } } }),
  },
};

/** The answers are typed too: an operator's first steps, reading fields off each answer. */
export async function operatorFirstSteps(baseUrl: string, token: string): Promise<string | null> {
  const client = createAdlineClient({ baseUrl, token });
  const advertiser = await client.POST('/api/admin/advertisers', { body: { name: 'Acme' } });
  if (!advertiser.data) return advertiser.error.code;
  const campaign = await client.POST('/api/admin/campaigns', {
    body: {
      advertiser_id: advertiser.data.id,
      name: 'Boots',
      text: 'Waterproof boots.',
      target_url: 'https://shop.example/boots',
      keywords: ['hiking boots'],
      bid_per_click: 0.35,
    },
  });
  if (!campaign.data) return campaign.error.code;
  const stats = await client.GET('/api/admin/campaigns/{id}/stats', {
    params: { path: { id: campaign.data.id }, query: period },
  });
  if (stats.error) return stats.error.code;
  // The route answers JSON, or CSV with `format=csv`: both are in its type.
  return typeof stats.data === 'string' ? stats.data : String(stats.data.remaining_budget);
}
