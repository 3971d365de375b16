import { Injectable } from '@nestjs/common';
import { utcDay } from '@/common/clock';
import { splitRevenue } from '@/common/money';
import { newId } from '@/database/columns';
import type { Statement } from '@/database/statements';
import { DailyConversionsRepository } from './daily-conversions.repository';
import { UNKNOWN_SOURCE } from './entities/daily-unbilled-click.entity';
import { DailyStatsRepository, StatIncrement } from './daily-stats.repository';
import { DailyUnbilledClicksRepository } from './daily-unbilled-clicks.repository';
import { LedgerEntry } from './entities/ledger-entry.entity';
import { LedgerRepository } from './ledger.repository';

export interface ServedImpression {
  createdAt: Date;
  modelId: string;
  campaignId: string;
  publisherId: string;
  /** Served to a test key: counted apart, in `test_impressions`. */
  test: boolean;
}

export interface BilledClick {
  clickId: string;
  at: Date;
  campaignId: string;
  publisherId: string;
  modelId: string;
  bidMicros: number;
  revenueSharePpm: number;
}

export interface UnbilledClick {
  at: Date;
  campaignId: string;
  publisherId: string;
  modelId: string;
  /** Why it was not billed: the click's invalid reason, or `over_budget`. */
  reason: string;
}

/** An accepted conversion, as its roll-ups count it. */
export interface AcceptedConversion {
  /** When its click was: the `click` basis counts it on this UTC day. */
  clickAt: Date;
  /** When it arrived: the `arrival` basis counts it on this UTC day. */
  receivedAt: Date;
  campaignId: string;
  publisherId: string | null;
  modelId: string;
  event: string;
  valueMicros: number | null;
  currency: string;
}

/** The currency whose values the roll-ups sum; conversions in others count without value. */
export const REPORTED_CURRENCY = 'USD';

/** A click on a test key's ad: counted apart, in `test_clicks`, and never billed. */
export type TestClick = Omit<UnbilledClick, 'reason'>;

/**
 * The money ledger and the daily roll-ups. Every method builds statements for the caller to
 * send in its own transaction, so an event and what it earns are committed together or not
 * at all.
 */
@Injectable()
export class EarningsService {
  constructor(
    private readonly dailyStats: DailyStatsRepository,
    private readonly unbilledClicks: DailyUnbilledClicksRepository,
    private readonly ledger: LedgerRepository,
    private readonly dailyConversions: DailyConversionsRepository,
  ) {}

  /**
   * The roll-up of newly accepted conversions, counted on both bases (the click's UTC day and
   * the arrival's), as a statement for the caller to send in its own transaction with the
   * conversions' rows; null when there is nothing to add. Only USD values are summed.
   */
  conversionsStatement(conversions: AcceptedConversion[]): Statement | null {
    return this.dailyConversions.upsertStatement(
      conversions.flatMap((c) => {
        const counted = {
          modelId: c.modelId,
          campaignId: c.campaignId,
          event: c.event,
          publisherId: c.publisherId ?? UNKNOWN_SOURCE,
          valueMicros: c.currency === REPORTED_CURRENCY ? (c.valueMicros ?? 0) : 0,
        };
        return [
          { ...counted, basis: 'click' as const, day: utcDay(c.clickAt) },
          { ...counted, basis: 'arrival' as const, day: utcDay(c.receivedAt) },
        ];
      }),
    );
  }

  /**
   * The roll-up of served impressions, as a statement for the caller to send in its own
   * transaction with the impressions; null when there is nothing to add.
   */
  impressionsStatement(impressions: ServedImpression[]): Statement | null {
    return this.dailyStats.upsertStatement(
      impressions.map((i) => ({
        ...key(i.createdAt, i),
        ...(i.test ? { testImpressions: 1 } : { impressions: 1 }),
      })),
    );
  }

  /**
   * The roll-up of viewed impressions, counted on the day each was served (so a day's view
   * rate is of its own impressions), as a statement for the caller to send in its own
   * transaction with the views; null when there is nothing to add.
   */
  viewsStatement(viewed: ServedImpression[]): Statement | null {
    return this.dailyStats.upsertStatement(
      viewed.map((i) => ({
        ...key(i.createdAt, i),
        ...(i.test ? { testViewedImpressions: 1 } : { viewedImpressions: 1 }),
      })),
    );
  }

  /**
   * A batch of clicks' money and counts, as statements for the caller to send in its own
   * transaction with the clicks: each billed click's spend and its split between the
   * publisher and the platform, as three ledger entries whose credits add up to the spend to
   * the micro (one insert for the batch), plus one roll-up upsert for the whole batch.
   * Unbilled clicks (invalid, or over the campaign's budget) only count: in `invalid_clicks`,
   * and by reason (one more upsert). Clicks on test keys' ads count in `test_clicks` alone:
   * no ledger entry, no reason row.
   * @returns the statements (none for an empty batch), and each billed click's publisher
   *   earnings in micros, in order.
   */
  clicksStatements(
    billed: BilledClick[],
    unbilled: UnbilledClick[],
    test: TestClick[] = [],
  ): { statements: Statement[]; earned: number[] } {
    const entries: LedgerEntry[] = [];
    const increments: StatIncrement[] = [
      ...unbilled.map((click) => ({ ...key(click.at, click), invalidClicks: 1 })),
      ...test.map((click) => ({ ...key(click.at, click), testClicks: 1 })),
    ];
    const earned = billed.map((click) => {
      const { publisherMicros, platformMicros } = splitRevenue(
        click.bidMicros,
        click.revenueSharePpm,
      );
      const entry = (account: LedgerEntry['account'], amountMicros: number): LedgerEntry => ({
        id: newId(),
        createdAt: click.at,
        clickId: click.clickId,
        account,
        campaignId: click.campaignId,
        publisherId: click.publisherId,
        modelId: click.modelId,
        amountMicros,
      });
      entries.push(
        entry('campaign_spend', click.bidMicros),
        entry('publisher_earnings', publisherMicros),
        entry('platform_revenue', platformMicros),
      );
      increments.push({
        ...key(click.at, click),
        clicks: 1,
        spendMicros: click.bidMicros,
        earningsMicros: publisherMicros,
      });
      return publisherMicros;
    });
    const statements = [
      this.ledger.insertStatement(entries),
      this.dailyStats.upsertStatement(increments),
      this.unbilledClicks.upsertStatement(
        unbilled.map((click) => ({ ...key(click.at, click), reason: click.reason })),
      ),
    ].filter((statement): statement is Statement => statement !== null);
    return { statements, earned };
  }
}

function key(
  at: Date,
  ids: { modelId: string; campaignId: string; publisherId: string },
): StatIncrement {
  return {
    day: utcDay(at),
    modelId: ids.modelId,
    campaignId: ids.campaignId,
    publisherId: ids.publisherId,
  };
}
