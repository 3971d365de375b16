/** The operator API (`/api/admin/…`) as the console uses it; the session cookie authorises it. */
import { type Model, type Payout, type PayoutMethod, request } from './api';

export interface Paged<T> {
  items: T[];
  page: number;
  per_page: number;
  total: number;
}

export type AdvertiserStatus = 'active' | 'inactive';

export interface Advertiser {
  id: string;
  name: string;
  contact_email: string | null;
  status: AdvertiserStatus;
  created_at: string;
  updated_at: string;
}

export interface AdvertiserKey {
  id: string;
  key_prefix: string;
  label: string | null;
  created_at: string;
  revoked_at: string | null;
}

export type CampaignStatus = 'active' | 'paused' | 'archived';
export type Device = 'mobile' | 'tablet' | 'desktop';
export const DEVICES: Device[] = ['mobile', 'tablet', 'desktop'];

/** What a campaign's create takes (`PATCH` takes the same, all optional, but the advertiser). */
export interface CampaignInput {
  advertiser_id: string;
  name: string;
  text: string;
  image_url: string | null;
  target_url: string;
  category: string | null;
  keywords: string[];
  keyword_translations: Record<string, string[]>;
  bid_per_click: number;
  budget_total: number | null;
  budget_daily: number | null;
  starts_at: string | null;
  ends_at: string | null;
  countries: string[];
  devices: Device[];
  status: CampaignStatus;
  click_id_param: string | null;
  attribution_window_days: number;
}

export interface Campaign extends CampaignInput {
  id: string;
  spent: number;
  spent_today: number;
  created_at: string;
}

export interface AuditEntry {
  id: string;
  actor_id: string | null;
  field: string | null;
  old_value: unknown;
  new_value: unknown;
  created_at: string;
}

export interface MatchedKeyword {
  keyword: string;
  source: 'context_keywords' | 'conversation';
  match: string;
  translation: string | null;
}

export interface TryResult {
  would_serve: boolean;
  reason?: string;
  relevance?: number;
  winning_score?: number;
  explanation?: {
    matched_keywords: MatchedKeyword[];
    relevance: number;
    bid: number;
    score: number;
  };
}

export interface ReportFigures {
  impressions: number;
  clicks: number;
  invalid_clicks: number;
  ctr: number;
  spend: number;
  invalid_click_rate: number;
  unbilled_by_reason: Record<string, number>;
}

/**
 * Figures the reports may carry (viewability, conversions): shown when the API sends them,
 * left out when it does not.
 */
export interface OptionalFigures {
  viewed_impressions?: number;
  view_rate?: number;
  conversions?: number;
  conversion_value?: number;
  cost_per_conversion?: number | null;
  roas?: number | null;
}

export type ReportRow = ReportFigures & OptionalFigures;

export interface CampaignStats {
  from: string;
  to: string;
  rows: (ReportRow & { date: string })[];
  totals: ReportRow;
  remaining_budget: number | null;
}

export interface PlatformFigures extends ReportRow {
  publisher_earnings: number;
  platform_revenue: number;
}

export interface PublisherReport {
  from: string;
  to: string;
  rows: (PlatformFigures & {
    publisher_id: string;
    publisher_name: string | null;
    publisher_email: string | null;
  })[];
  totals: PlatformFigures;
}

export interface ModelReport {
  from: string;
  to: string;
  rows: (PlatformFigures & { publisher_id: string; model_id: string; model_name: string | null })[];
  totals: PlatformFigures;
}

export type PublisherStatus = 'active' | 'suspended';

export interface OperatorPublisher {
  id: string;
  email: string;
  name: string;
  role: 'publisher' | 'admin';
  status: PublisherStatus;
  revenue_share: number;
  email_verified: boolean;
  created_at: string;
}

export interface PublisherBalance {
  publisher_id: string;
  email: string;
  name: string;
  earned_total: number;
  paid_total: number;
  unpaid_balance: number;
  due: boolean;
  last_payout_at: string | null;
}

export interface PublisherBalances {
  payout_threshold: number;
  publishers: PublisherBalance[];
}

export interface PublisherAuditEntry {
  id: string;
  actor_id: string | null;
  from_status: PublisherStatus;
  to_status: PublisherStatus;
  reason: string | null;
  created_at: string;
}

export interface PayoutInput {
  amount: number;
  period_start: string;
  period_end: string;
  method: PayoutMethod;
  reference: string;
}

type Range = { from: string; to: string };

const path = (...parts: string[]) =>
  `/api/admin/${parts.map((p) => encodeURIComponent(p)).join('/')}`;

const query = (params: Record<string, string | undefined>): string => {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value) search.set(name, value);
  return search.toString();
};

export const adminApi = {
  advertisers: (status?: string) =>
    request<Paged<Advertiser>>(
      'GET',
      `${path('advertisers')}?${query({ status, per_page: '100' })}`,
    ),
  createAdvertiser: (input: { name: string; contact_email: string | null }) =>
    request<Advertiser>('POST', path('advertisers'), input),
  updateAdvertiser: (
    id: string,
    changes: Partial<Pick<Advertiser, 'name' | 'contact_email' | 'status'>>,
  ) => request<Advertiser>('PATCH', path('advertisers', id), changes),
  advertiserKeys: (id: string) =>
    request<{ keys: AdvertiserKey[] }>('GET', `${path('advertisers', id)}/keys`),
  createAdvertiserKey: (id: string, label: string | null) =>
    request<AdvertiserKey & { key: string }>('POST', `${path('advertisers', id)}/keys`, { label }),
  revokeAdvertiserKey: (id: string, keyId: string) =>
    request<void>('DELETE', `${path('advertisers', id)}/keys/${encodeURIComponent(keyId)}`),

  campaigns: (filter: { status?: string; advertiser_id?: string; keyword?: string }) =>
    request<Paged<Campaign>>(
      'GET',
      `${path('campaigns')}?${query({ ...filter, per_page: '100' })}`,
    ),
  campaign: (id: string) => request<Campaign>('GET', path('campaigns', id)),
  createCampaign: (input: CampaignInput) => request<Campaign>('POST', path('campaigns'), input),
  updateCampaign: (id: string, changes: Partial<CampaignInput>) =>
    request<Campaign>('PATCH', path('campaigns', id), changes),
  campaignAudit: (id: string) =>
    request<Paged<AuditEntry>>('GET', `${path('campaigns', id)}/audit?per_page=100`),
  campaignStats: (id: string, range: { from: string; to: string }) =>
    request<CampaignStats>('GET', `${path('campaigns', id)}/stats?${query(range)}`),
  publishers: (page = 1) =>
    request<Paged<OperatorPublisher>>(
      'GET',
      `${path('publishers')}?${query({ page: String(page), per_page: '100' })}`,
    ),
  updatePublisher: (
    id: string,
    changes: Partial<Pick<OperatorPublisher, 'revenue_share' | 'status'> & { reason: string }>,
  ) => request<OperatorPublisher>('PATCH', path('publishers', id), changes),
  publisherModels: (id: string) =>
    request<{ models: Model[] }>('GET', `${path('publishers', id)}/models`),
  publisherAudit: (id: string) =>
    request<{ entries: PublisherAuditEntry[] }>('GET', `${path('publishers', id)}/audit`),
  updateModel: (id: string, status: Model['status']) =>
    request<Model>('PATCH', path('models', id), { status }),
  publisherPayouts: (id: string) =>
    request<{ payouts: Payout[] }>('GET', `${path('publishers', id)}/payouts`),
  createPayout: (id: string, input: PayoutInput) =>
    request<Payout>('POST', `${path('publishers', id)}/payouts`, input),
  voidPayout: (id: string, reason: string) =>
    request<Payout>('POST', `${path('payouts', id)}/void`, { reason }),
  balances: () => request<PublisherBalances>('GET', path('reports', 'balances')),
  publisherReport: (range: Range) =>
    request<PublisherReport>('GET', `${path('reports', 'publishers')}?${query(range)}`),
  modelReport: (range: Range) =>
    request<ModelReport>('GET', `${path('reports', 'models')}?${query(range)}`),
  tryCampaign: (
    id: string,
    input: {
      conversation: string;
      context_keywords: string;
      user_location?: string;
      user_device_info?: string;
    },
  ) => request<TryResult>('POST', `${path('campaigns', id)}/try`, input),
};

/** The CSV of a campaign's report for a range: a plain download link. */
export const campaignStatsCsvUrl = (id: string, range: { from: string; to: string }): string =>
  `${path('campaigns', id)}/stats?${query({ ...range, format: 'csv' })}`;

/** The CSV of a platform report (`publishers` or `models`) for a range. */
export const reportCsvUrl = (report: 'publishers' | 'models', range: Range): string =>
  `${path('reports', report)}?${query({ ...range, format: 'csv' })}`;

/** Every publisher, page after page (the API answers at most 100 a page). */
export async function allPublishers(): Promise<OperatorPublisher[]> {
  const all: OperatorPublisher[] = [];
  for (let page = 1; ; page++) {
    const answer = await adminApi.publishers(page);
    all.push(...answer.items);
    if (answer.items.length === 0 || all.length >= answer.total) return all;
  }
}
