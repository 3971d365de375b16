import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  CampaignBillingService,
  type ChargeResult,
  type LockedBudgets,
} from '@/campaigns/billing/campaign-billing.service';
import { CampaignChangeNotifier } from '@/campaigns/change-notices/campaign-change-notifier.service';
import { CampaignIndexService } from '@/campaign-index/campaign-index.service';
import { AppConfig } from '@/config/app-config';
import { GroupCommit } from '@/database/group-commit';
import { databaseDeadlines } from '@/database/data-source-options';
import { StatementTransactions } from '@/database/sql';
import type { Decided, ReadAll, Statement } from '@/database/statements';
import { UNKNOWN_SOURCE } from '@/earnings/entities/daily-unbilled-click.entity';
import { EarningsService } from '@/earnings/earnings.service';
import { MetricsService } from '@/metrics/metrics.service';
import {
  type BatchFacts,
  type ClickRules,
  type FollowedLink,
  IP_LIMIT_LOOKBACK_MS,
  judgeClicks,
  mayBill,
} from './click-judge';
import { ClickTrafficRepository } from './click-traffic.repository';
import { ClicksRepository } from './clicks.repository';
import { Click, ClickStatus, InvalidClickReason } from './entities/click.entity';
import { type ClickedImpression, ImpressionsRepository } from './impressions.repository';

export type { FollowedLink } from './click-judge';

export interface ClickOutcome {
  status: ClickStatus;
  reason?: InvalidClickReason;
}

/**
 * Records clicks by group commit, like impressions: each `record()` resolves once its click
 * is committed, billed or not, and concurrent clicks share one transaction. Within a batch
 * the clicks are judged in arrival order (the first click on an impression wins), and the
 * campaigns' budgets are charged under row locks, so no campaign ever overspends.
 *
 * On MySQL a batch's transaction is two round trips on one connection (see
 * StatementTransactions.run): its reads, locking ones included, in one, and every write with
 * the COMMIT in the other; the judging and charging between them is done in memory.
 */
@Injectable()
export class ClickRecorder implements OnApplicationShutdown {
  private readonly logger = new Logger(ClickRecorder.name);
  private readonly batches: GroupCommit<FollowedLink, ClickOutcome>;
  private readonly rules: ClickRules;
  private readonly transactions: StatementTransactions;

  constructor(
    dataSource: DataSource,
    private readonly index: CampaignIndexService,
    private readonly changes: CampaignChangeNotifier,
    private readonly billing: CampaignBillingService,
    private readonly earnings: EarningsService,
    private readonly traffic: ClickTrafficRepository,
    private readonly clicks: ClicksRepository,
    private readonly impressions: ImpressionsRepository,
    config: AppConfig,
    private readonly metrics: MetricsService,
  ) {
    this.rules = {
      windowMs: config.clickWindowMs,
      minMs: config.clickMinMs,
      ipLimits: config.clickIpLimits,
    };
    this.transactions = new StatementTransactions(dataSource, databaseDeadlines(config));
    this.batches = new GroupCommit({
      maxBatch: config.clickBatchSize,
      flushMs: config.clickFlushMs,
      maxConcurrent: config.database.type === 'mysql' ? 2 : 1,
      write: (links) => this.write(links),
      findCommitted: (links) => this.storedOutcomes(links),
      name: 'clicks',
      onCommit: metrics.batchObserver('clicks'),
      onBatchFailure: (error, size) =>
        this.logger.error(
          `could not record ${size} clicks in one batch; recording them one by one`,
          (error as Error).stack,
        ),
    });
    metrics.readFrom('clicksLost', () => this.stats.lost);
  }

  /**
   * Since start: committed batches and clicks (how well group commit is batching), and
   * `lost`: clicks finally not written (each logged too: `click lost`, or the failed request).
   */
  get stats(): { batches: number; clicks: number; lost: number } {
    const { batches, items, failed } = this.batches.stats;
    return { batches, clicks: items, lost: failed };
  }

  /** Resolves once the click is committed, with what it was judged to be. */
  record(link: FollowedLink): Promise<ClickOutcome> {
    const recorded = this.batches.submit(link);
    // Counted once committed, however it was (its batch, one by one, or found stored).
    void recorded.then(
      ({ status, reason }) =>
        this.metrics.clicks.inc({ outcome: status, reason: reason ?? 'none' }),
      () => undefined,
    );
    return recorded;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.batches.drain();
    await this.transactions.close();
  }

  private async write(links: FollowedLink[]): Promise<ClickOutcome[]> {
    const { outcomes, exhausted } = await this.transactions.run((read) =>
      this.judgeAndStore(read, links),
    );
    // After the commit nothing may fail the batch: it would be recorded again one by one
    // (re-inserting committed clicks) and the person shown an error for a recorded click.
    for (const campaignId of exhausted) {
      // Logged once committed: the transaction above may run again or not commit at all.
      this.logger.log(`campaign ${campaignId} is out of budget`);
      await this.stopServing(campaignId);
    }
    return outcomes;
  }

  /**
   * The outcomes of the links' clicks that are already stored, by index: a write whose
   * commit landed unseen is answered from its rows instead of being written again.
   */
  private async storedOutcomes(links: FollowedLink[]): Promise<Map<number, ClickOutcome>> {
    const rows = await this.clicks.findOutcomes(links.map((link) => link.clickId));
    const stored = new Map(rows.map((row) => [row.id, row]));
    const outcomes = new Map<number, ClickOutcome>();
    links.forEach((link, i) => {
      const row = stored.get(link.clickId);
      if (!row) return;
      outcomes.set(i, row.invalidReason ? invalid(row.invalidReason) : { status: row.status });
    });
    return outcomes;
  }

  /** The index stops serving what can no longer pay (if it still does); best effort. */
  private async stopServing(campaignId: string): Promise<void> {
    try {
      if (this.index.served(campaignId)) await this.changes.notifyExhausted(campaignId);
    } catch (error) {
      // The index's periodic refresh drops the campaign anyway; the clicks are committed.
      this.logger.error(
        `could not stop serving exhausted campaign ${campaignId}`,
        (error as Error).stack,
      );
    }
  }

  /**
   * One batch's transaction: what it reads, then, judged and charged in memory, what it
   * writes (committed with them). Run again whole on contention, so it changes nothing
   * outside the transaction.
   */
  private async judgeAndStore(
    read: ReadAll,
    links: FollowedLink[],
  ): Promise<Decided<{ outcomes: ClickOutcome[]; exhausted: string[] }>> {
    const impressionIds = [
      ...new Set(links.flatMap((l) => (l.impressionId ? [l.impressionId] : []))),
    ];
    const earliest = Math.min(...links.map((link) => link.at.getTime()));
    // One round trip, its locks taken in the same order by every batch: the impressions (a
    // second batch with a click on one of them waits, then sees it clicked), the IPs' billed
    // clicks, then the budgets of every campaign a click may bill, whether or not it does.
    const [impressions, standing, billedByIp, budgets] = await read([
      this.impressions.lockForClicks(impressionIds),
      this.traffic.standing(impressionIds),
      this.traffic.billedByIp(
        links.map((link) => link.ipHash),
        new Date(earliest - IP_LIMIT_LOOKBACK_MS),
      ),
      this.billing.lockBudgets(links.filter(mayBill).map((link) => link.campaignId)),
    ]);
    const facts: BatchFacts = { impressions, standing, billedByIp };
    const outcomes = this.judgeAndCharge(links, facts, budgets);
    const spend = this.billing.settle(budgets);
    // A billed or over-budget click uses up its impression; later ones are duplicates.
    const claimed = new Map<string, Date>();
    links.forEach((link, i) => {
      const { status } = outcomes[i];
      if (status === 'billed' || status === 'over_budget') claimed.set(link.impressionId!, link.at);
    });

    const rows = links.map((link, i) => clickRow(link, outcomes[i], impressions));
    const billedRows = rows.filter((row) => row.status === 'billed');
    // Test traffic is counted apart from the billable counters, never as an invalid click.
    const isTest = (row: Click) => row.invalidReason === 'test';
    // Who a click counts for: the impression's campaign, model and publisher, at its time.
    const counted = (row: Click) => {
      const impression = impressions.get(row.impressionId!)!;
      const { campaignId, publisherId, modelId } = impression;
      return { at: row.createdAt, campaignId, publisherId, modelId, impression };
    };
    const earnings = this.earnings.clicksStatements(
      billedRows.map((row) => {
        const { impression, ...click } = counted(row);
        return {
          ...click,
          clickId: row.id,
          bidMicros: impression.bidMicros,
          revenueSharePpm: impression.revenueSharePpm,
        };
      }),
      rows
        .filter((row) => row.status !== 'billed' && !isTest(row))
        .map((row) => ({
          // A click names a publisher and model only through a real impression; a forged
          // one counts for its link's campaign alone, under the unknown source.
          ...(row.publisherId === null ? forgedSource(row) : counted(row)),
          reason: row.invalidReason ?? 'over_budget',
        })),
      rows.filter(isTest).map((row) => {
        const { at, campaignId, publisherId, modelId } = counted(row);
        return { at, campaignId, publisherId, modelId };
      }),
    );
    billedRows.forEach((row, i) => (row.publisherEarningsMicros = earnings.earned[i]));
    const markClicked = this.impressions.markClickedStatement(claimed);
    // In the order of the locks they take: the campaigns' rows (locked already), then the
    // servability version, the impressions (locked already), the roll-ups, the clicks.
    const writes: Statement[] = [
      ...spend.writes,
      ...(markClicked ? [markClicked] : []),
      ...earnings.statements,
      this.clicks.insertStatement(rows),
    ];
    return { result: { outcomes, exhausted: spend.exhausted }, writes };
  }

  /**
   * Judges the batch, then the valid clicks compete for their campaigns' budgets in arrival
   * order. Only billed clicks use up an IP's allowance: when a valid click goes unbilled
   * (over budget, campaign inactive), the batch is judged again without counting it, and
   * the clicks that become valid by that (ip_limit before) are charged in turn. A click
   * once charged keeps its outcome. Rarely more than one round: only when a budget runs out.
   */
  private judgeAndCharge(
    links: FollowedLink[],
    facts: BatchFacts,
    budgets: LockedBudgets,
  ): ClickOutcome[] {
    const charged = new Map<string, ClickOutcome>();
    const unbilled = new Set<string>();
    let verdicts = judgeClicks(links, facts, this.rules);
    for (;;) {
      const due = links.filter((link, i) => verdicts[i] === 'valid' && !charged.has(link.clickId));
      if (due.length === 0) break;
      const results = budgets.charge(
        due.map((link) => ({
          campaignId: link.campaignId,
          bidMicros: facts.impressions.get(link.impressionId!)!.bidMicros,
          at: link.at,
        })),
      );
      const before = unbilled.size;
      due.forEach((link, i) => {
        const outcome = chargeOutcome(results[i]);
        charged.set(link.clickId, outcome);
        if (outcome.status !== 'billed') unbilled.add(link.clickId);
      });
      if (unbilled.size === before) break;
      verdicts = judgeClicks(links, facts, this.rules, unbilled);
    }
    // Every click judged valid was charged above; the others keep their reason.
    return links.map(
      (link, i) => charged.get(link.clickId) ?? invalid(verdicts[i] as InvalidClickReason),
    );
  }
}

const invalid = (reason: InvalidClickReason): ClickOutcome => ({ status: 'invalid', reason });

/** Who a forged follow counts for: the campaign its link names, from no known source. */
const forgedSource = (row: Click) => ({
  at: row.createdAt,
  campaignId: row.campaignId,
  publisherId: UNKNOWN_SOURCE,
  modelId: UNKNOWN_SOURCE,
});

function chargeOutcome(result: ChargeResult): ClickOutcome {
  return result === 'campaign_inactive' ? invalid(result) : { status: result };
}

function clickRow(
  link: FollowedLink,
  outcome: ClickOutcome,
  impressions: Map<string, ClickedImpression>,
): Click {
  const impression = link.impressionId ? impressions.get(link.impressionId) : undefined;
  return {
    id: link.clickId,
    createdAt: link.at,
    impressionId: impression?.id ?? null,
    campaignId: link.campaignId,
    modelId: link.modelId,
    publisherId: impression?.publisherId ?? null,
    status: outcome.status,
    invalidReason: outcome.reason ?? null,
    costMicros: outcome.status === 'billed' ? impression!.bidMicros : 0,
    publisherEarningsMicros: 0,
    userAgent: link.userAgent?.slice(0, 512) ?? null,
    ipHash: link.ipHash,
  };
}
