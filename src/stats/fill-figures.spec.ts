import {
  fillFigures,
  outcomesByDayAndModel,
  outcomesOf,
  sumOutcomes,
  withRequestOnlyDays,
} from '@/stats/fill-figures';
import type { DailyModelFills } from '@/earnings/fill-stats.repository';

const stored: DailyModelFills[] = [
  { day: '2026-03-01', modelId: 'm1', outcome: 'filled', requests: 6 },
  { day: '2026-03-01', modelId: 'm1', outcome: 'no_match', requests: 3 },
  { day: '2026-03-01', modelId: 'm1', outcome: 'sensitive_topic', requests: 1 },
  { day: '2026-03-02', modelId: 'm2', outcome: 'no_match', requests: 2 },
];

describe('fillFigures', () => {
  it('adds fills and no-fills into requests, with the fill rate and only the reasons seen', () => {
    expect(fillFigures({ filled: 6, no_match: 3, sensitive_topic: 1 })).toEqual({
      requests: 10,
      fills: 6,
      fill_rate: 0.6,
      no_fills: { no_match: 3, sensitive_topic: 1 },
    });
  });

  it('rounds the fill rate to 6 decimals', () => {
    expect(fillFigures({ filled: 1, no_match: 2 }).fill_rate).toBe(0.333333);
  });

  it('answers a null fill rate, not 0, without requests', () => {
    expect(fillFigures({})).toEqual({ requests: 0, fills: 0, fill_rate: null, no_fills: {} });
  });

  it('counts test requests as no-fills of reason test', () => {
    expect(fillFigures({ test: 4 })).toEqual({
      requests: 4,
      fills: 0,
      fill_rate: 0,
      no_fills: { test: 4 },
    });
  });
});

describe('the stored rows per day and model', () => {
  it('groups outcomes per day and model, and sums them for the totals', () => {
    const grouped = outcomesByDayAndModel(stored);
    expect(outcomesOf(grouped, { day: '2026-03-01', modelId: 'm1' })).toEqual({
      filled: 6,
      no_match: 3,
      sensitive_topic: 1,
    });
    expect(outcomesOf(grouped, { day: '2026-03-01', modelId: 'm2' })).toEqual({});
    expect(sumOutcomes(stored)).toEqual({ filled: 6, no_match: 5, sensitive_topic: 1 });
  });

  it('adds a row for a day and model with requests but no billing roll-up, in day then model order', () => {
    const billed = [
      { day: '2026-03-01', modelId: 'm1', impressions: 6 },
      { day: '2026-03-03', modelId: 'm1', impressions: 1 },
    ];
    const rows = withRequestOnlyDays(billed, outcomesByDayAndModel(stored), (day, modelId) => ({
      day,
      modelId,
      impressions: 0,
    }));
    expect(rows).toEqual([
      { day: '2026-03-01', modelId: 'm1', impressions: 6 },
      { day: '2026-03-02', modelId: 'm2', impressions: 0 },
      { day: '2026-03-03', modelId: 'm1', impressions: 1 },
    ]);
  });
});
