import { Injectable } from '@nestjs/common';
import { microsToUnits } from '@/common/money';
import { ProblemException } from '@/common/problem';
import { PublishersService } from '@/publishers/publishers.service';
import { StatsDto, StatsQueryDto, StatsTotalsDto } from './dto/stats.dto';
import {
  type FillFigures,
  fillFigures,
  outcomesByDayAndModel,
  outcomesOf,
  sumOutcomes,
  withRequestOnlyDays,
} from './fill-figures';
import { FillStatsRepository } from '@/earnings/fill-stats.repository';
import { statsRangeErrors } from '@/reports/stats-range';
import { type DailyModelStat, StatsRepository } from './stats.repository';

/** A publisher's usage statistics, from the daily roll-ups. */
@Injectable()
export class StatsService {
  constructor(
    private readonly stats: StatsRepository,
    private readonly publishers: PublishersService,
    private readonly fills: FillStatsRepository,
  ) {}

  async forPublisher(publisherId: string, query: StatsQueryDto): Promise<StatsDto> {
    const errors = statsRangeErrors(query.from, query.to);
    if (errors.length > 0) throw ProblemException.validation(errors);
    if (
      query.model_id !== undefined &&
      !(await this.publishers.findOwnedModel(publisherId, query.model_id))
    ) {
      throw ProblemException.notFound('model_not_found', 'No AI model of yours has this id.');
    }
    const [billed, fills] = await Promise.all([
      this.stats.perDayAndModel(publisherId, query.from, query.to, query.model_id),
      this.fills.perDayAndModel(publisherId, query.from, query.to, query.model_id),
    ]);
    // A day whose requests all went without an ad has no billing roll-up, but is a row.
    const outcomes = outcomesByDayAndModel(fills);
    const rows = withRequestOnlyDays(billed, outcomes, quietDay);
    const sum = (pick: (r: DailyModelStat) => number) =>
      rows.reduce((total, r) => total + pick(r), 0);
    return {
      from: query.from,
      to: query.to,
      rows: rows.map((r) => ({
        date: r.day,
        model_id: r.modelId,
        ...figures(r),
        ...fillFigures(outcomesOf(outcomes, r)),
      })),
      totals: {
        ...figures({
          impressions: sum((r) => r.impressions),
          clicks: sum((r) => r.clicks),
          earningsMicros: sum((r) => r.earningsMicros),
          testImpressions: sum((r) => r.testImpressions),
          testClicks: sum((r) => r.testClicks),
        }),
        ...fillFigures(sumOutcomes(fills)),
      },
    };
  }
}

type Counters = Omit<DailyModelStat, 'day' | 'modelId'>;

/** A day and model without billing activity: every request answered without an ad. */
const quietDay = (day: string, modelId: string): DailyModelStat => ({
  day,
  modelId,
  impressions: 0,
  clicks: 0,
  earningsMicros: 0,
  testImpressions: 0,
  testClicks: 0,
});

/**
 * The figures of a row or the totals; money becomes decimal units only here, at the edge.
 * Test keys' traffic stays in its own two figures, out of the billable ones and the CTR.
 */
function figures(c: Counters): Omit<StatsTotalsDto, keyof FillFigures> {
  return {
    impressions: c.impressions,
    clicks: c.clicks,
    ctr: c.impressions > 0 ? Math.round((c.clicks / c.impressions) * 1e6) / 1e6 : 0,
    earnings: microsToUnits(c.earningsMicros),
    test_impressions: c.testImpressions,
    test_clicks: c.testClicks,
  };
}
