import type { Campaign } from '@/campaigns/entities/campaign.entity';

/** What the campaign has spent on the given UTC day. */
export function spentOnDay(campaign: Campaign, day: string): number {
  return campaign.spentDay === day ? campaign.spentTodayMicros : 0;
}
