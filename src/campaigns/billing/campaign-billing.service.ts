import { Injectable } from '@nestjs/common';
import { Clock, utcDay } from '@/common/clock';
import type { Read, Statement } from '@/database/statements';
import { type BudgetState, canPay, charge } from './campaign-budget';
import {
  type ChargeableCampaign,
  CampaignsRepository,
} from '@/campaigns/campaigns/campaigns.repository';
import { ServabilityRepository } from '@/campaigns/change-notices/servability.repository';

/** One click's charge: the bid in force when its ad was served, at the click's time. */
export interface ClickCharge {
  campaignId: string;
  bidMicros: number;
  at: Date;
}

/** billed; over_budget: the budgets could not pay; campaign_inactive: paused or archived. */
export type ChargeResult = 'billed' | 'over_budget' | 'campaign_inactive';

/**
 * A batch's campaigns as read under lock, and what the batch's charges have spent of them so
 * far: the charges are decided in memory, in order, over one or more calls of `charge`, and
 * written once (CampaignBillingService.settle), with the batch's other writes.
 */
export class LockedBudgets {
  private readonly byId: Map<string, ChargeableCampaign>;
  /** Each campaign's budget after the charges so far. */
  private readonly budgets: Map<string, BudgetState>;
  /** The campaigns whose spend changed, with their new budget state: what `settle` writes. */
  readonly changed = new Map<string, BudgetState>();
  /** The campaigns any charge named (those whose running out `settle` reports). */
  private readonly charged = new Set<string>();

  constructor(
    private readonly locked: ReadonlySet<string>,
    readonly campaigns: ChargeableCampaign[],
  ) {
    this.byId = new Map(campaigns.map((c) => [c.id, c]));
    this.budgets = new Map(campaigns.map((c) => [c.id, c.budget]));
  }

  /**
   * Charges clicks in the given order, each only if its campaign is active (not paused or
   * archived now, at click time) and its total and daily budgets still allow its bid.
   */
  charge(charges: ClickCharge[]): ChargeResult[] {
    return charges.map(({ campaignId, bidMicros, at }): ChargeResult => {
      // Only a locked row may be charged: its lock is what keeps the budget.
      if (!this.locked.has(campaignId)) throw new Error(`campaign ${campaignId} is not locked`);
      this.charged.add(campaignId);
      const campaign = this.byId.get(campaignId);
      if (!campaign?.active) return 'campaign_inactive';
      // An ad served just before its campaign ended earns nothing for a click after the end.
      if (campaign.endsAt !== null && at.getTime() > campaign.endsAt) return 'campaign_inactive';
      const after = charge(this.budgets.get(campaignId)!, bidMicros, utcDay(at));
      if (!after) return 'over_budget';
      this.budgets.set(campaignId, after);
      this.changed.set(campaignId, after);
      return 'billed';
    });
  }

  /** The charged campaigns that can no longer pay their current bid on `day`. */
  exhausted(day: string): ChargeableCampaign[] {
    return this.campaigns.filter(
      (c) => this.charged.has(c.id) && !canPay(this.budgets.get(c.id)!, c.bidMicros, day),
    );
  }
}

/** Charges clicks to their campaigns' budgets: a campaign never spends past either budget. */
@Injectable()
export class CampaignBillingService {
  constructor(
    private readonly campaigns: CampaignsRepository,
    private readonly servability: ServabilityRepository,
    private readonly clock: Clock,
  ) {}

  /**
   * The campaigns' budgets, read and locked (MySQL, in id order) in the caller's
   * transaction, so concurrent batches serialise on them and can never overspend. Only these
   * campaigns may then be charged.
   */
  lockBudgets(campaignIds: string[]): Read<LockedBudgets> {
    const ids = new Set(campaignIds);
    const read = this.campaigns.lockBudgets([...ids]);
    return { statement: read.statement, from: (rows) => new LockedBudgets(ids, read.from(rows)) };
  }

  /**
   * The writes of the charges: the campaigns' new spend in one statement, and the campaigns
   * that ran out of budget counted in the servability version (what other instances' ad
   * indexes probe), to be sent in the transaction that locked them, after every campaign
   * row it locks.
   * @returns the writes, and the campaigns that can no longer pay their current bid (the ad
   *   index must stop serving them).
   */
  settle(locked: LockedBudgets): { writes: Statement[]; exhausted: string[] } {
    const now = this.clock.now();
    const today = utcDay(now);
    const exhausted = locked.exhausted(today);
    // Counted only as a campaign runs out (it could pay before this batch), so a batch that
    // leaves every budget room takes no lock beyond its campaigns' rows. Until a budget is
    // raised or a bid lowered (both counted as changes) or the UTC day turns (the index
    // rebuilds then), a campaign runs out at most once.
    const ranOut = exhausted.filter((c) => canPay(c.budget, c.bidMicros, today));
    const writes = [
      this.campaigns.spendStatement(locked.changed, now),
      this.servability.exhaustionsStatement(ranOut.length),
    ].filter((statement): statement is Statement => statement !== null);
    return { writes, exhausted: exhausted.map((c) => c.id) };
  }
}
