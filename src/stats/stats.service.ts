import { Injectable } from '@nestjs/common';
import { Clock } from '@/common/clock';
import { ProblemException } from '@/common/problem';
import { PublishersService } from '@/publishers/publishers.service';
import type { StatsOverviewDto } from './dto/stats-overview.dto';
import {
  ModelRangeQueryDto,
  StatsDto,
  StatsQueryDto,
  StatsRow,
  StatsTotalsDto,
} from './dto/stats.dto';
import type { UnbilledClicksDto } from './dto/unbilled-clicks.dto';
import {
  fillFigures,
  outcomesByDayAndModel,
  type OutcomeCounts,
  outcomesOf,
  sumOutcomes,
  withRequestOnlyDays,
} from './fill-figures';
import { FillStatsRepository } from '@/earnings/fill-stats.repository';
import { statsRangeErrors } from '@/reports/stats-range';
import { overviewPeriods, type DayRange } from './overview-periods';
import { addCounters, billingFigures, changeOf, type Counters, NO_COUNTERS } from './stats-figures';
import { type DailyModelStat, StatsRepository } from './stats.repository';
import { reasonRank, UNBILLED_REASON_TEXTS, UNBILLED_REASONS } from './unbilled-reasons';

/** Every amount the statistics answer is in this currency. */
const CURRENCY = 'USD';

/** A publisher's usage statistics, from the daily roll-ups. */
@Injectable()
export class StatsService {
  constructor(
    private readonly stats: StatsRepository,
    private readonly publishers: PublishersService,
    private readonly fills: FillStatsRepository,
    private readonly clock: Clock,
  ) {}

  async forPublisher(publisherId: string, query: StatsQueryDto): Promise<StatsDto> {
    await this.checkQuery(publisherId, query);
    const { from, to, model_id: modelId } = query;
    const [billed, fills] = await Promise.all([
      this.stats.perDayAndModel(publisherId, from, to, modelId),
      this.fills.perDayAndModel(publisherId, from, to, modelId),
    ]);
    // A day whose requests all went without an ad has no billing roll-up, but is a row.
    const outcomes = outcomesByDayAndModel(fills);
    const days = withRequestOnlyDays(billed, outcomes, quietDay);
    const totals: StatsTotalsDto = {
      ...billingFigures(days.reduce(addCounters, NO_COUNTERS)),
      ...fillFigures(sumOutcomes(fills)),
    };
    let rows: StatsRow[];
    switch (query.group_by ?? 'day') {
      case 'day':
        rows = days.map((r) => ({
          date: r.day,
          model_id: r.modelId,
          ...billingFigures(r),
          ...fillFigures(outcomesOf(outcomes, r)),
        }));
        break;
      case 'model':
        rows = perModel(days, fills).map(([modelId, c, o]) => ({
          model_id: modelId,
          ...billingFigures(c),
          ...fillFigures(o),
        }));
        break;
      case 'key':
        rows = (await this.stats.perKey(publisherId, from, to, modelId))
          .sort((a, b) => compare(a.modelId, b.modelId) || compare(a.keyId, b.keyId))
          .map((r) => ({
            key_id: r.keyId,
            model_id: r.modelId,
            key_prefix: r.keyPrefix,
            key_label: r.keyLabel,
            ...billingFigures(r),
          }));
        break;
      case 'campaign':
        rows = (await this.stats.perCampaign(publisherId, from, to, modelId))
          .sort(
            (a, b) =>
              b.earningsMicros - a.earningsMicros ||
              b.clicks - a.clicks ||
              b.impressions - a.impressions ||
              compare(a.campaignId, b.campaignId),
          )
          .map((r) => ({
            campaign_id: r.campaignId,
            campaign_name: r.campaignName,
            ...billingFigures(r),
          }));
        break;
    }
    return { from, to, rows, totals };
  }

  /** Today, yesterday, this month and last month (UTC), each beside the period before. */
  async overview(publisherId: string): Promise<StatsOverviewDto> {
    const periods = overviewPeriods(this.clock.now());
    // The earliest day any period reads is the first of the month before last month.
    const days = await this.stats.perDayAndModel(
      publisherId,
      periods[3].previous.from,
      periods[0].to,
    );
    const sumOf = (range: DayRange): Counters =>
      days.filter((d) => d.day >= range.from && d.day <= range.to).reduce(addCounters, NO_COUNTERS);
    const figures = (range: DayRange) => {
      const c = sumOf(range);
      const { impressions, clicks, earnings, ctr, rpm } = billingFigures(c);
      return { from: range.from, to: range.to, impressions, clicks, earnings, ctr, rpm };
    };
    return {
      currency: CURRENCY,
      periods: periods.map((p) => ({
        period: p.period,
        ...figures(p),
        previous: figures(p.previous),
        earnings_change: changeOf(sumOf(p).earningsMicros, sumOf(p.previous).earningsMicros),
      })),
    };
  }

  /** Clicks on the publisher's ads that were not paid, by reason, with what each reason means. */
  async unbilledClicks(publisherId: string, query: ModelRangeQueryDto): Promise<UnbilledClicksDto> {
    await this.checkQuery(publisherId, query);
    const stored = await this.stats.unbilledPerDayModelAndReason(
      publisherId,
      query.from,
      query.to,
      query.model_id,
    );
    const rows = stored
      .sort(
        (a, b) =>
          compare(a.day, b.day) ||
          compare(a.modelId, b.modelId) ||
          reasonRank(a.reason) - reasonRank(b.reason) ||
          compare(a.reason, b.reason),
      )
      .map((r) => ({ date: r.day, model_id: r.modelId, reason: r.reason, clicks: r.clicks }));
    const totals = new Map<string, number>();
    for (const r of rows) totals.set(r.reason, (totals.get(r.reason) ?? 0) + r.clicks);
    return {
      from: query.from,
      to: query.to,
      rows,
      totals: [...totals]
        .sort(([a], [b]) => reasonRank(a) - reasonRank(b) || compare(a, b))
        .map(([reason, clicks]) => ({ reason, clicks })),
      reasons: UNBILLED_REASONS.map((reason) => ({ reason, ...UNBILLED_REASON_TEXTS[reason] })),
    };
  }

  private async checkQuery(publisherId: string, query: ModelRangeQueryDto): Promise<void> {
    const errors = statsRangeErrors(query.from, query.to);
    if (errors.length > 0) throw ProblemException.validation(errors);
    if (
      query.model_id !== undefined &&
      !(await this.publishers.findOwnedModel(publisherId, query.model_id))
    ) {
      throw ProblemException.notFound('model_not_found', 'No AI model of yours has this id.');
    }
  }
}

const compare = (a: string | null, b: string | null): number =>
  a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? -1 : 1;

/** The days' counters and fill outcomes summed per model, by model id. */
function perModel(
  days: readonly DailyModelStat[],
  fills: Parameters<typeof sumOutcomes>[0],
): [string, Counters, OutcomeCounts][] {
  const models = [...new Set(days.map((d) => d.modelId))].sort(compare);
  return models.map((modelId) => [
    modelId,
    days.filter((d) => d.modelId === modelId).reduce(addCounters, NO_COUNTERS),
    sumOutcomes(fills.filter((f) => f.modelId === modelId)),
  ]);
}

/** A day and model without billing activity: every request answered without an ad. */
const quietDay = (day: string, modelId: string): DailyModelStat => ({
  day,
  modelId,
  ...NO_COUNTERS,
});
