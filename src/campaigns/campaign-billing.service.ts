import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock, utcDay } from '@/common/clock';
import { type BudgetState, canPay, charge } from './campaign-budget';
import { CampaignsRepository } from './campaigns.repository';
import { ServabilityRepository } from './servability.repository';

/** One click's charge: the bid in force when its ad was served, at the click's time. */
export interface ClickCharge {
  campaignId: string;
  bidMicros: number;
  at: Date;
}

/** billed; over_budget: the budgets could not pay; campaign_inactive: paused or archived. */
export type ChargeResult = 'billed' | 'over_budget' | 'campaign_inactive';

/** Charges clicks to their campaigns' budgets: a campaign never spends past either budget. */
@Injectable()
export class CampaignBillingService {
  private readonly logger = new Logger(CampaignBillingService.name);

  constructor(
    private readonly campaigns: CampaignsRepository,
    private readonly servability: ServabilityRepository,
    private readonly clock: Clock,
  ) {}

  /**
   * Charges clicks to their campaigns in the caller's transaction, in the given order, each
   * only if the campaign is active (not paused or archived now, at click time) and its total
   * and daily budgets still allow its bid. The campaigns' rows are locked (MySQL, in id
   * order) before they are read, so concurrent batches serialise on them and can never
   * overspend; one statement writes the result. Campaigns that run out of budget in this
   * call are counted in the servability version, in the same transaction (what other
   * instances' ad indexes probe).
   * @returns per charge what became of it, and the campaigns that can no longer pay their
   *   current bid (the ad index must stop serving them).
   */
  async chargeClicks(
    manager: EntityManager,
    charges: ClickCharge[],
  ): Promise<{ results: ChargeResult[]; exhausted: string[] }> {
    const ids = [...new Set(charges.map((c) => c.campaignId))];
    if (ids.length === 0) return { results: [], exhausted: [] };
    const campaigns = await this.campaigns.lockBudgets(manager, ids);
    const budgets = new Map(campaigns.map((c) => [c.id, c.budget]));
    const byId = new Map(campaigns.map((c) => [c.id, c]));
    const changed = new Map<string, BudgetState>();
    const results = charges.map(({ campaignId, bidMicros, at }): ChargeResult => {
      const campaign = byId.get(campaignId);
      if (!campaign?.active) return 'campaign_inactive';
      // An ad served just before its campaign ended earns nothing for a click after the end.
      if (campaign.endsAt !== null && at.getTime() > campaign.endsAt) return 'campaign_inactive';
      const after = charge(budgets.get(campaignId)!, bidMicros, utcDay(at));
      if (!after) return 'over_budget';
      budgets.set(campaignId, after);
      changed.set(campaignId, after);
      return 'billed';
    });
    const now = this.clock.now();
    await this.campaigns.writeSpend(manager, changed, now);
    const today = utcDay(now);
    const exhausted = campaigns.filter((c) => !canPay(budgets.get(c.id)!, c.bidMicros, today));
    // Counted only as a campaign runs out (it could pay before this batch), so a batch that
    // leaves every budget room takes no lock beyond its campaigns' rows. Until a budget is
    // raised or a bid lowered (both counted as changes) or the UTC day turns (the index
    // rebuilds then), a campaign runs out at most once.
    const ranOut = exhausted.filter((c) => canPay(c.budget, c.bidMicros, today));
    await this.servability.countExhaustions(manager, ranOut.length);
    for (const c of exhausted) this.logger.log(`campaign ${c.id} is out of budget`);
    return { results, exhausted: exhausted.map((c) => c.id) };
  }
}
