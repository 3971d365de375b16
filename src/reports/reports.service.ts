import { Injectable } from '@nestjs/common';
import { microsToUnits } from '@/common/money';
import { ProblemException } from '@/common/problem';
import { PublishersService } from '@/publishers/publishers.service';
import {
  CampaignStatsDto,
  ModelReportDto,
  PublisherReportDto,
  ReportQueryDto,
} from './dto/reports.dto';
import { counted, figures, NO_COUNTERS, shares, sum } from './report-figures';
import { type ReportCounters, ReportsRepository } from './reports.repository';
import { statsRangeErrors } from './stats-range';

/** A campaign's budgets and spend in micros, as the campaigns module knows them. */
export interface CampaignBudget {
  campaignId: string;
  budgetTotalMicros: number | null;
  budgetDailyMicros: number | null;
  spentMicros: number;
  spentTodayMicros: number;
}

/**
 * Operators' reports: per campaign and day, per publisher and per model, from the daily
 * roll-ups, with the unbilled clicks broken down by reason.
 */
@Injectable()
export class ReportsService {
  constructor(
    private readonly reports: ReportsRepository,
    private readonly publishers: PublishersService,
  ) {}

  async campaignStats(budget: CampaignBudget, query: ReportQueryDto): Promise<CampaignStatsDto> {
    assertRange(query);
    const { campaignId } = budget;
    const [days, reasons, conversions] = await Promise.all([
      this.reports.campaignDays(campaignId, query.from, query.to),
      this.reports.unbilledByReason('day', query.from, query.to, campaignId),
      this.reports.conversionsBy('day', query.from, query.to, campaignId),
    ]);
    const rows = withQuietKeys(
      days,
      (d) => d.day,
      conversions,
      (day) => ({ day }),
    );
    const all = rows.map((d) => ({
      day: d.day,
      ...counted(d, reasons.get(d.day), conversions.get(d.day)),
    }));
    const remaining = (cap: number | null, spent: number) =>
      cap === null ? null : microsToUnits(Math.max(0, cap - spent));
    return {
      campaign_id: campaignId,
      from: query.from,
      to: query.to,
      rows: all.map((d) => ({ date: d.day, ...figures(d) })),
      totals: figures(sum(all)),
      budget_total:
        budget.budgetTotalMicros === null ? null : microsToUnits(budget.budgetTotalMicros),
      budget_daily:
        budget.budgetDailyMicros === null ? null : microsToUnits(budget.budgetDailyMicros),
      spent: microsToUnits(budget.spentMicros),
      spent_today: microsToUnits(budget.spentTodayMicros),
      remaining_budget: remaining(budget.budgetTotalMicros, budget.spentMicros),
      remaining_budget_today: remaining(budget.budgetDailyMicros, budget.spentTodayMicros),
    };
  }

  async publisherReport(query: ReportQueryDto): Promise<PublisherReportDto> {
    assertRange(query);
    const [active, reasons, conversions] = await Promise.all([
      this.reports.publishers(query.from, query.to),
      this.reports.unbilledByReason('publisher', query.from, query.to),
      this.reports.conversionsBy('publisher', query.from, query.to),
    ]);
    const rows = withQuietKeys(
      active,
      (r) => r.publisherId,
      conversions,
      (publisherId) => ({
        publisherId,
      }),
    );
    const accounts = await Promise.all(
      rows.map((r) => this.publishers.findPublisher(r.publisherId)),
    );
    const all = rows.map((r) =>
      counted(r, reasons.get(r.publisherId), conversions.get(r.publisherId)),
    );
    return {
      from: query.from,
      to: query.to,
      rows: rows.map((r, i) => ({
        publisher_id: r.publisherId,
        publisher_name: accounts[i]?.name ?? null,
        publisher_email: accounts[i]?.email ?? null,
        ...shares(all[i]),
      })),
      totals: shares(sum(all)),
    };
  }

  async modelReport(query: ReportQueryDto): Promise<ModelReportDto> {
    assertRange(query);
    const [active, reasons, conversions] = await Promise.all([
      this.reports.models(query.from, query.to),
      this.reports.unbilledByReason('model', query.from, query.to),
      this.reports.conversionsBy('model', query.from, query.to),
    ]);
    const rows = withQuietKeys(
      active,
      (r) => r.modelId,
      conversions,
      (modelId, c) => ({ modelId, publisherId: c.publisherId, modelName: c.modelName }),
    ).sort((a, b) => byKey(a.publisherId, b.publisherId) || byKey(a.modelId, b.modelId));
    const all = rows.map((r) => counted(r, reasons.get(r.modelId), conversions.get(r.modelId)));
    return {
      from: query.from,
      to: query.to,
      rows: rows.map((r, i) => ({
        publisher_id: r.publisherId,
        model_id: r.modelId,
        model_name: r.modelName,
        ...shares(all[i]),
      })),
      totals: shares(sum(all)),
    };
  }
}

const byKey = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The report's rows, plus a row with no other activity for each key that has conversions
 * only (a late conversion arrives on a quiet day), in key order.
 */
function withQuietKeys<Row extends ReportCounters, C>(
  rows: Row[],
  keyOf: (row: Row) => string,
  conversions: Map<string, C>,
  quiet: (key: string, conversions: C) => Omit<Row, keyof ReportCounters>,
): Row[] {
  const seen = new Set(rows.map(keyOf));
  const added = [...conversions]
    .filter(([key]) => !seen.has(key))
    .map(([key, c]) => ({ ...NO_COUNTERS, ...quiet(key, c) }) as Row);
  if (added.length === 0) return rows;
  return [...rows, ...added].sort((a, b) => byKey(keyOf(a), keyOf(b)));
}

function assertRange(query: ReportQueryDto): void {
  const errors = statsRangeErrors(query.from, query.to);
  if (errors.length > 0) throw ProblemException.validation(errors);
}
