import { HttpStatus } from '@nestjs/common';
import { FieldError, ProblemException } from '@/common/problem';
import type { Campaign } from '@/campaigns/entities/campaign.entity';
import { quotedKey, untranslatableKeys } from './keyword-translations';

type Constrained = Pick<
  Campaign,
  | 'bidMicros'
  | 'budgetTotalMicros'
  | 'budgetDailyMicros'
  | 'startsAt'
  | 'endsAt'
  | 'keywords'
  | 'keywordTranslations'
>;

/**
 * Rules that tie fields together, checked on the campaign as it would be after a change,
 * so a PATCH of the bid alone is held against the budgets already set.
 */
export function campaignRuleErrors(campaign: Constrained): FieldError[] {
  const errors: FieldError[] = [];
  // A budget below the bid could never pay for a single click.
  if (campaign.budgetTotalMicros !== null && campaign.budgetTotalMicros < campaign.bidMicros) {
    errors.push({ field: 'budget_total', message: 'budget_total must be at least bid_per_click' });
  }
  if (campaign.budgetDailyMicros !== null && campaign.budgetDailyMicros < campaign.bidMicros) {
    errors.push({ field: 'budget_daily', message: 'budget_daily must be at least bid_per_click' });
  }
  if (campaign.startsAt && campaign.endsAt && campaign.startsAt >= campaign.endsAt) {
    errors.push({ field: 'ends_at', message: 'ends_at must be later than starts_at' });
  }
  // A translation stands for one of the campaign's keywords; one of no keyword means nothing.
  // The first ten are named: a body can hold thousands, and the answer need not echo them.
  const unknownKeys = untranslatableKeys(campaign.keywords, campaign.keywordTranslations);
  for (const key of unknownKeys.slice(0, 10)) {
    errors.push({
      field: 'keyword_translations',
      message: `keyword_translations has the key ${quotedKey(key)}, which is not a keyword of the campaign`,
    });
  }
  return errors;
}

export function assertCampaignRules(campaign: Constrained): void {
  const errors = campaignRuleErrors(campaign);
  if (errors.length > 0) throw ProblemException.validation(errors);
}

/**
 * Status moves `active ⇄ paused → archived`. Archived is final: the campaign's history
 * (spend, reports, audit) stays, but nothing about it changes any more.
 */
export function assertChangeable(campaign: Pick<Campaign, 'id' | 'status'>): void {
  if (campaign.status === 'archived') {
    throw new ProblemException(
      HttpStatus.CONFLICT,
      'campaign_archived',
      `Campaign ${campaign.id} is archived; an archived campaign cannot change.`,
    );
  }
}
