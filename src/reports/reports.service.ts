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
import { figures, shares, sum, withReasons } from './report-figures';
import { ReportsRepository } from './reports.repository';
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
    const [days, reasons] = await Promise.all([
      this.reports.campaignDays(campaignId, query.from, query.to),
      this.reports.unbilledByReason('day', query.from, query.to, campaignId),
    ]);
    const counted = days.map((d) => ({ day: d.day, ...withReasons(d, reasons.get(d.day)) }));
    const remaining = (cap: number | null, spent: number) =>
      cap === null ? null : microsToUnits(Math.max(0, cap - spent));
    return {
      campaign_id: campaignId,
      from: query.from,
      to: query.to,
      rows: counted.map((d) => ({ date: d.day, ...figures(d) })),
      totals: figures(sum(counted)),
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
    const [rows, reasons] = await Promise.all([
      this.reports.publishers(query.from, query.to),
      this.reports.unbilledByReason('publisher', query.from, query.to),
    ]);
    const accounts = await Promise.all(
      rows.map((r) => this.publishers.findPublisher(r.publisherId)),
    );
    const counted = rows.map((r) => withReasons(r, reasons.get(r.publisherId)));
    return {
      from: query.from,
      to: query.to,
      rows: rows.map((r, i) => ({
        publisher_id: r.publisherId,
        publisher_name: accounts[i]?.name ?? null,
        publisher_email: accounts[i]?.email ?? null,
        ...shares(counted[i]),
      })),
      totals: shares(sum(counted)),
    };
  }

  async modelReport(query: ReportQueryDto): Promise<ModelReportDto> {
    assertRange(query);
    const [rows, reasons] = await Promise.all([
      this.reports.models(query.from, query.to),
      this.reports.unbilledByReason('model', query.from, query.to),
    ]);
    const counted = rows.map((r) => withReasons(r, reasons.get(r.modelId)));
    return {
      from: query.from,
      to: query.to,
      rows: rows.map((r, i) => ({
        publisher_id: r.publisherId,
        model_id: r.modelId,
        model_name: r.modelName,
        ...shares(counted[i]),
      })),
      totals: shares(sum(counted)),
    };
  }
}

function assertRange(query: ReportQueryDto): void {
  const errors = statsRangeErrors(query.from, query.to);
  if (errors.length > 0) throw ProblemException.validation(errors);
}
