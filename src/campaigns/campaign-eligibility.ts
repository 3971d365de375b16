import { utcDay } from '@/common/clock';
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
  const bid = campaign.bidMicros;
  if (
    campaign.budgetTotalMicros !== null &&
    campaign.spentMicros + bid > campaign.budgetTotalMicros
  ) {
    return false;
  }
  if (
    campaign.budgetDailyMicros !== null &&
    spentOnDay(campaign, utcDay(now)) + bid > campaign.budgetDailyMicros
  ) {
    return false;
  }
  return true;
}
