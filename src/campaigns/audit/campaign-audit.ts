import type { CampaignDto } from '@/campaigns/dto/campaign.dto';
import type { Campaign } from '@/campaigns/entities/campaign.entity';

/** What an operator can change on a campaign, in the entity's terms (micros, Dates). */
export type CampaignChanges = Partial<
  Pick<
    Campaign,
    | 'name'
    | 'text'
    | 'imageUrl'
    | 'targetUrl'
    | 'category'
    | 'keywords'
    | 'keywordTranslations'
    | 'bidMicros'
    | 'budgetTotalMicros'
    | 'budgetDailyMicros'
    | 'startsAt'
    | 'endsAt'
    | 'countries'
    | 'devices'
    | 'status'
    | 'clickIdParam'
    | 'attributionWindowDays'
  >
>;

/** The audited fields, by their API names: the audit speaks the operator's language. */
export const AUDITED_FIELDS = [
  'name',
  'text',
  'image_url',
  'target_url',
  'category',
  'keywords',
  'keyword_translations',
  'bid_per_click',
  'budget_total',
  'budget_daily',
  'starts_at',
  'ends_at',
  'countries',
  'devices',
  'status',
  'click_id_param',
  'attribution_window_days',
] as const satisfies readonly (keyof CampaignDto)[];

export type AuditedField = (typeof AUDITED_FIELDS)[number];

export interface FieldChange {
  field: AuditedField;
  oldValue: string;
  newValue: string;
}

/** The audited fields whose API value differs, each with both values as JSON. */
export function fieldChanges(before: CampaignDto, after: CampaignDto): FieldChange[] {
  return AUDITED_FIELDS.flatMap((field) => {
    const oldValue = JSON.stringify(before[field]);
    const newValue = JSON.stringify(after[field]);
    return oldValue === newValue ? [] : [{ field, oldValue, newValue }];
  });
}

/** The first version of a campaign, as one JSON object of its audited fields. */
export function auditSnapshot(campaign: CampaignDto): string {
  return JSON.stringify(Object.fromEntries(AUDITED_FIELDS.map((f) => [f, campaign[f]])));
}
