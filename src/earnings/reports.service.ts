import { Injectable } from '@nestjs/common';
import { microsToUnits } from '@/common/money';
import { ProblemException } from '@/common/problem';
import { PublishersService } from '@/publishers/publishers.service';
import {
  CampaignStatsDto,
  PublisherReportDto,
  PublisherReportTotalsDto,
  ReportFiguresDto,
  ReportQueryDto,
} from './dto/reports.dto';
import { ReportCounters, ReportsRepository } from './reports.repository';
import { statsRangeErrors } from './stats-range';

/** A campaign's budgets and spend in micros, as the campaigns module knows them. */
export interface CampaignBudget {
  campaignId: string;
  budgetTotalMicros: number | null;
  budgetDailyMicros: number | null;
  spentMicros: number;
  spentTodayMicros: number;
}

/** Operators' reports: per campaign and day, and per publisher, from the daily roll-ups. */
@Injectable()
export class ReportsService {
  constructor(
    private readonly reports: ReportsRepository,
    private readonly publishers: PublishersService,
  ) {}

  async campaignStats(budget: CampaignBudget, query: ReportQueryDto): Promise<CampaignStatsDto> {
    assertRange(query);
    const days = await this.reports.campaignDays(budget.campaignId, query.from, query.to);
    const remaining = (cap: number | null, spent: number) =>
      cap === null ? null : microsToUnits(Math.max(0, cap - spent));
    return {
      campaign_id: budget.campaignId,
      from: query.from,
      to: query.to,
      rows: days.map((d) => ({ date: d.day, ...figures(d) })),
      totals: figures(sum(days)),
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
    const rows = await this.reports.publishers(query.from, query.to);
    const accounts = await Promise.all(
      rows.map((r) => this.publishers.findPublisher(r.publisherId)),
    );
    return {
      from: query.from,
      to: query.to,
      rows: rows.map((r, i) => ({
        publisher_id: r.publisherId,
        publisher_name: accounts[i]?.name ?? null,
        publisher_email: accounts[i]?.email ?? null,
        ...shares(r),
      })),
      totals: shares(sum(rows)),
    };
  }
}

function assertRange(query: ReportQueryDto): void {
  const errors = statsRangeErrors(query.from, query.to);
  if (errors.length > 0) throw ProblemException.validation(errors);
}

function sum(rows: ReportCounters[]): ReportCounters {
  const total = { impressions: 0, clicks: 0, invalidClicks: 0, spendMicros: 0, earningsMicros: 0 };
  for (const r of rows) {
    total.impressions += r.impressions;
    total.clicks += r.clicks;
    total.invalidClicks += r.invalidClicks;
    total.spendMicros += r.spendMicros;
    total.earningsMicros += r.earningsMicros;
  }
  return total;
}

/** The figures of a row or the totals; money becomes decimal units only here, at the edge. */
function figures(c: ReportCounters): ReportFiguresDto {
  return {
    impressions: c.impressions,
    clicks: c.clicks,
    invalid_clicks: c.invalidClicks,
    ctr: c.impressions > 0 ? Math.round((c.clicks / c.impressions) * 1e6) / 1e6 : 0,
    spend: microsToUnits(c.spendMicros),
  };
}

/** The platform keeps what the publisher did not earn, micro for micro, as in the ledger. */
function shares(c: ReportCounters): PublisherReportTotalsDto {
  return {
    ...figures(c),
    publisher_earnings: microsToUnits(c.earningsMicros),
    platform_revenue: microsToUnits(c.spendMicros - c.earningsMicros),
  };
}
