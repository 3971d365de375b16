/**
 * The management API as the dashboard uses it (docs/design.md, "Who uses what"). The session is
 * the HttpOnly cookie the sign-in sets: no token is ever read, kept or sent by this code.
 */

import { plainFieldMessage } from './validation-messages';

export interface Publisher {
  id: string;
  email: string;
  name: string;
  role: 'publisher' | 'admin';
  status: 'active' | 'suspended';
  revenue_share: number;
  /** Whether the publisher followed the link of the verification mail. */
  email_verified?: boolean;
  created_at: string;
}

export type ModelStatus = 'active' | 'deactivated';

/** At most `max_ads` ads per `session_id` in `per_minutes` minutes from the session's first ad. */
export interface FrequencyCap {
  max_ads: number;
  per_minutes: number;
}

/** What ads a model is served (docs/api.md, "Publisher controls"). */
export interface ModelControls {
  /** IAB content category ids (`CONTENT_CATEGORIES`). */
  blocked_categories: string[];
  blocked_advertisers: string[];
  blocked_keywords: string[];
  /** 0–1 of the best possible relevance. */
  relevance_floor: number;
  frequency_cap: FrequencyCap | null;
}

export interface Model {
  id: string;
  name: string;
  description: string | null;
  link: string | null;
  status: ModelStatus;
  deactivated_by: 'publisher' | 'operator' | null;
  controls: ModelControls;
  created_at: string;
}

/** An advertiser whose ads the publisher's models were served: a model's controls block it by id. */
export interface ShownAdvertiser {
  id: string;
  name: string;
}

/** live: billed; test: the same ads and links, never billed (for building an integration). */
export type ApiKeyKind = 'live' | 'test';

export interface ApiKey {
  id: string;
  prefix: string;
  label: string | null;
  status: 'active' | 'revoked';
  kind: ApiKeyKind;
  created_at: string;
  last_used_at: string | null;
}

export interface CreatedApiKey extends ApiKey {
  key: string;
}

/** A new model comes with its first key; its secret is in this answer only. */
export interface CreatedModel extends Model {
  api_key: CreatedApiKey;
}

/** What live keys' traffic earned: the figures the charts and tables show. */
export interface BillableFigures {
  impressions: number;
  clicks: number;
  ctr: number;
  earnings: number;
}

/** Why a fetch-ads request got no (billable) ad. */
export type NoFillReason =
  | 'no_match'
  | 'no_targeted_match'
  | 'sensitive_topic'
  | 'frequency_cap'
  | 'relevance_floor'
  | 'blocked'
  | 'test';

/** fetch-ads requests: how many got an ad, and why the others did not. */
export interface FillFigures {
  requests: number;
  fills: number;
  /** fills ÷ requests; null without requests. */
  fill_rate: number | null;
  /** Only reasons with requests. */
  no_fills: Partial<Record<NoFillReason, number>>;
}

export interface StatsFigures extends BillableFigures, FillFigures {
  /** Test keys' traffic: never billed, not in the billable figures. */
  test_impressions: number;
  test_clicks: number;
}

export interface StatsRow extends StatsFigures {
  date: string;
  model_id: string;
}

export interface Stats {
  from: string;
  to: string;
  rows: StatsRow[];
  totals: StatsFigures;
}

/** How a stats table is broken down (`group_by`). */
export type StatsGroupBy = 'day' | 'model' | 'key' | 'campaign';

/** A row of `/api/stats?group_by=…`: the columns beside the figures depend on the breakdown. */
export interface GroupedStatsRow extends StatsFigures {
  date?: string;
  model_id?: string;
  key_id?: string;
  key_prefix?: string;
  key_label?: string | null;
  campaign_id?: string;
  campaign_name?: string;
  advertiser_name?: string;
  rpm?: number;
}

export interface GroupedStats {
  from: string;
  to: string;
  rows: GroupedStatsRow[];
  totals: StatsFigures & { rpm?: number };
}

export type OverviewPeriodName = 'today' | 'yesterday' | 'this_month' | 'last_month';

export interface PeriodFigures {
  from: string;
  to: string;
  impressions: number;
  clicks: number;
  earnings: number;
  ctr: number;
  rpm: number;
}

export interface OverviewPeriod extends PeriodFigures {
  period: OverviewPeriodName;
  previous: PeriodFigures;
  /** A fraction (0.25 = +25%); null when the period before earned nothing. */
  earnings_change: number | null;
}

export interface Overview {
  currency: string;
  periods: OverviewPeriod[];
}

export interface Balance {
  currency: string;
  earned_total: number;
  paid_total: number;
  unpaid_balance: number;
  payout_threshold: number;
  /** 0..1 */
  revenue_share: number;
  /** unpaid_balance >= payout_threshold */
  due: boolean;
}

export type PayoutMethod = 'bank_transfer' | 'paypal' | 'wise' | 'check' | 'other';

export interface Payout {
  id: string;
  publisher_id: string;
  amount: number;
  currency: string;
  period_start: string;
  period_end: string;
  method: PayoutMethod;
  reference: string;
  status: 'paid' | 'voided';
  created_at: string;
  voided_at: string | null;
  void_reason: string | null;
}

export interface UnbilledClickRow {
  date: string;
  model_id: string;
  reason: string;
  clicks: number;
}

/** Why clicks of a kind are not billed, in plain words. */
export interface UnbilledReason {
  reason: string;
  title: string;
  meaning: string;
  what_to_do: string;
}

export interface UnbilledClicks {
  from: string;
  to: string;
  rows: UnbilledClickRow[];
  totals: { reason: string; clicks: number }[];
  reasons: UnbilledReason[];
}

export interface StatsQuery {
  from: string;
  to: string;
  modelId?: string;
  groupBy?: StatsGroupBy;
}

const statsParams = (query: StatsQuery): URLSearchParams => {
  const params = new URLSearchParams({ from: query.from, to: query.to });
  if (query.modelId) params.set('model_id', query.modelId);
  if (query.groupBy && query.groupBy !== 'day') params.set('group_by', query.groupBy);
  return params;
};

/** The address of the stats table as CSV, with the page's filters: a plain download link. */
export const statsCsvUrl = (query: StatsQuery): string => {
  const params = statsParams(query);
  params.set('format', 'csv');
  return `/api/stats?${params.toString()}`;
};

export interface FieldError {
  field: string;
  message: string;
}

/** A problem-details answer (RFC 9457), or a network failure (status 0). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly errors: FieldError[] = [],
  ) {
    super(message);
  }

  /** The messages for one field, e.g. to show beside its input. */
  forField(field: string): string | undefined {
    const messages = this.errors
      .filter((e) => e.field === field)
      .map((e) => plainFieldMessage(e.field, e.message));
    return messages.length > 0 ? messages.join('; ') : undefined;
  }
}

let onUnauthorized: () => void = () => undefined;

/** Called when a request answers 401: the session ended (expired, signed out elsewhere). */
export function whenUnauthorized(handler: () => void): void {
  onUnauthorized = handler;
}

export async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: {
        accept: 'application/json, application/problem+json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, 'network', 'The service cannot be reached. Check your connection.');
  }
  if (response.status === 204) return undefined as T;
  const data: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const problem = (data ?? {}) as { code?: string; detail?: string; errors?: FieldError[] };
    const error = new ApiError(
      response.status,
      problem.code ?? 'internal',
      problem.detail ?? `The service answered ${response.status}.`,
      Array.isArray(problem.errors) ? problem.errors : [],
    );
    if (response.status === 401 && !path.startsWith('/api/auth/')) onUnauthorized();
    throw error;
  }
  return data as T;
}

const modelPath = (id: string) => `/api/models/${encodeURIComponent(id)}`;

export const api = {
  changePassword: (input: { current_password: string; new_password: string }) =>
    request<void>('POST', '/api/auth/change-password', input),
  forgotPassword: (email: string) =>
    request<{ message: string }>('POST', '/api/auth/forgot-password', { email }),
  resetPassword: (input: { token: string; new_password: string }) =>
    request<void>('POST', '/api/auth/reset-password', input),
  verifyEmail: (token: string) => request<void>('POST', '/api/auth/verify-email', { token }),
  resendVerification: () => request<void>('POST', '/api/auth/resend-verification'),

  overview: () => request<Overview>('GET', '/api/stats/overview'),
  balance: () => request<Balance>('GET', '/api/publisher/balance'),
  payouts: () => request<{ payouts: Payout[] }>('GET', '/api/publisher/payouts'),
  groupedStats: (query: StatsQuery) =>
    request<GroupedStats>('GET', `/api/stats?${statsParams(query).toString()}`),
  unbilledClicks: (query: { from: string; to: string; modelId?: string }) =>
    request<UnbilledClicks>(
      'GET',
      `/api/stats/unbilled-clicks?${statsParams({ from: query.from, to: query.to, modelId: query.modelId }).toString()}`,
    ),

  register: (input: { name: string; email: string; password: string }) =>
    request<{ publisher: Publisher }>('POST', '/api/auth/register', input),
  login: (input: { email: string; password: string }) =>
    request<{ publisher: Publisher }>('POST', '/api/auth/login', input),
  logout: () => request<void>('POST', '/api/auth/logout'),
  publisher: () => request<Publisher>('GET', '/api/publisher'),

  models: () => request<Model[]>('GET', '/api/models'),
  model: (id: string) => request<Model>('GET', modelPath(id)),
  createModel: (input: { name: string; description: string | null; link: string | null }) =>
    request<CreatedModel>('POST', '/api/models', input),
  updateModel: (
    id: string,
    changes: Partial<Pick<Model, 'name' | 'description' | 'link' | 'status'>>,
  ) => request<Model>('PATCH', modelPath(id), changes),
  /** Replaces the model's controls as a whole. */
  setControls: (id: string, controls: ModelControls) =>
    request<Model>('PUT', `${modelPath(id)}/controls`, controls),

  /** By name: every advertiser whose ads any of the publisher's models were served. */
  shownAdvertisers: () => request<ShownAdvertiser[]>('GET', '/api/advertisers/shown'),

  keys: (modelId: string) => request<ApiKey[]>('GET', `${modelPath(modelId)}/keys`),
  createKey: (modelId: string, label: string | null, kind: ApiKeyKind) =>
    request<CreatedApiKey>('POST', `${modelPath(modelId)}/keys`, { label, kind }),
  revokeKey: (modelId: string, keyId: string) =>
    request<void>('DELETE', `${modelPath(modelId)}/keys/${encodeURIComponent(keyId)}`),

  stats: (query: { from: string; to: string; modelId?: string }) => {
    const params = new URLSearchParams({ from: query.from, to: query.to });
    if (query.modelId) params.set('model_id', query.modelId);
    return request<Stats>('GET', `/api/stats?${params.toString()}`);
  },
};
