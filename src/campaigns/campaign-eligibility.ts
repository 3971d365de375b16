import { utcDay } from '@/common/clock';
import { type BudgetState, canPay } from './campaign-budget';
import type { Campaign } from './entities/campaign.entity';

/** What the campaign has spent on the given UTC day. */
export function spentOnDay(campaign: Campaign, day: string): number {
  return campaign.spentDay === day ? campaign.spentTodayMicros : 0;
}

/**
 * Whether a campaign may be served now: active, inside its schedule, and with budget left
 * for at least one more click at its bid (total and daily).
 */
export function isServable(campaign: Campaign, now: Date): boolean {
  if (campaign.status !== 'active') return false;
  if (campaign.startsAt && campaign.startsAt.getTime() > now.getTime()) return false;
  if (campaign.endsAt && campaign.endsAt.getTime() <= now.getTime()) return false;
  return canPay(budgetOf(campaign), campaign.bidMicros, utcDay(now));
}

export function budgetOf(campaign: Campaign): BudgetState {
  return {
    totalMicros: campaign.budgetTotalMicros,
    dailyMicros: campaign.budgetDailyMicros,
    spentMicros: campaign.spentMicros,
    spentTodayMicros: campaign.spentTodayMicros,
    spentDay: campaign.spentDay,
  };
}
