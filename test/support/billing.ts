import type { EntityManager } from 'typeorm';
import {
  CampaignBillingService,
  type ChargeResult,
  type ClickCharge,
} from '@/campaigns/billing/campaign-billing.service';
import { readIn } from '@/database/sql';

/**
 * Charges clicks to their campaigns in the caller's TypeORM transaction, in the given order,
 * through billing's own steps as a click batch uses them (`lockBudgets`, `charge`, `settle`),
 * without clicks or impressions around them: for specs about budgets alone.
 * @returns per charge what became of it, and the campaigns that can no longer pay their bid.
 */
export async function chargeClicks(
  billing: CampaignBillingService,
  manager: EntityManager,
  charges: ClickCharge[],
): Promise<{ results: ChargeResult[]; exhausted: string[] }> {
  if (charges.length === 0) return { results: [], exhausted: [] };
  const [locked] = await readIn(manager)([billing.lockBudgets(charges.map((c) => c.campaignId))]);
  const results = locked.charge(charges);
  const { writes, exhausted } = billing.settle(locked);
  for (const { sql, parameters } of writes) await manager.query(sql, parameters);
  return { results, exhausted };
}
