import { microsToUnits } from '@/common/money';

/** The billable counters of a row or a sum of rows, money in micros. */
export interface Counters {
  impressions: number;
  clicks: number;
  earningsMicros: number;
  /** Test keys' traffic, never billed. */
  testImpressions: number;
  testClicks: number;
  /** Live impressions whose ad was seen on screen (its `view_url` called in time). */
  viewedImpressions: number;
}

export const NO_COUNTERS: Counters = {
  impressions: 0,
  clicks: 0,
  earningsMicros: 0,
  testImpressions: 0,
  testClicks: 0,
  viewedImpressions: 0,
};

export function addCounters(a: Counters, b: Counters): Counters {
  return {
    impressions: a.impressions + b.impressions,
    clicks: a.clicks + b.clicks,
    earningsMicros: a.earningsMicros + b.earningsMicros,
    testImpressions: a.testImpressions + b.testImpressions,
    testClicks: a.testClicks + b.testClicks,
    viewedImpressions: a.viewedImpressions + b.viewedImpressions,
  };
}

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

/** clicks ÷ impressions, 6 decimals; 0 without impressions. */
export const ctrOf = (c: { impressions: number; clicks: number }): number =>
  c.impressions > 0 ? round6(c.clicks / c.impressions) : 0;

/** viewed ÷ impressions, 6 decimals; 0 without impressions. */
export const viewRateOf = (c: { impressions: number; viewedImpressions: number }): number =>
  c.impressions > 0 ? round6(c.viewedImpressions / c.impressions) : 0;

/**
 * Earnings per 1,000 impressions in units, to the micro; 0 without impressions, as the CTR
 * (earnings without impressions, from clicks on ads served the day before, are not a rate).
 */
export const rpmOf = (c: { impressions: number; earningsMicros: number }): number =>
  c.impressions > 0 ? microsToUnits(Math.round((c.earningsMicros * 1000) / c.impressions)) : 0;

/** A fraction's change from `before` to `now`, 6 decimals; null when there was nothing before. */
export const changeOf = (now: number, before: number): number | null =>
  before === 0 ? null : round6((now - before) / before);

/**
 * The billing figures of a row or the totals; money becomes decimal units only here, at the
 * edge. Test keys' traffic stays in its own two figures, out of the billable ones and the
 * rates.
 */
export function billingFigures(c: Counters) {
  return {
    impressions: c.impressions,
    clicks: c.clicks,
    ctr: ctrOf(c),
    rpm: rpmOf(c),
    earnings: microsToUnits(c.earningsMicros),
    test_impressions: c.testImpressions,
    test_clicks: c.testClicks,
    viewed_impressions: c.viewedImpressions,
    view_rate: viewRateOf(c),
  };
}
