import { microsToUnits } from '@/common/money';
import type { PublisherReportTotalsDto, ReportFiguresDto } from './dto/reports.dto';
import type { ConversionCounts, ReasonCounts, ReportCounters } from './reports.repository';

export type { ConversionCounts, ReasonCounts };

/**
 * Every reason a counted unbilled click can have, in the order reports list them: the
 * invalid reasons, `over_budget` (valid, but the budget could not pay) and `unrecorded`
 * (counted before reasons were kept, its raw click already purged). CSV has a column for
 * each. Forged links (`bad_signature`, `unknown_impression`) name no real impression: they
 * count in their campaign's report only.
 */
export const UNBILLED_REASONS = [
  'bad_signature',
  'unknown_impression',
  'mismatch',
  'duplicate',
  'expired',
  'bot',
  'head_request',
  'prefetch',
  'too_fast',
  'ip_limit',
  'publisher_suspended',
  'model_inactive',
  'key_revoked',
  'campaign_inactive',
  'over_budget',
  'unrecorded',
] as const;

/** A report row's counters with its unbilled clicks by reason and its conversions. */
export interface Counted extends ReportCounters, ConversionCounts {
  unbilledByReason: ReasonCounts;
}

export const NO_CONVERSIONS: ConversionCounts = {
  conversions: 0,
  conversionsByEvent: {},
  conversionValueMicros: 0,
  conversionsReceived: 0,
};

export const NO_COUNTERS: ReportCounters = {
  impressions: 0,
  clicks: 0,
  invalidClicks: 0,
  spendMicros: 0,
  earningsMicros: 0,
  viewedImpressions: 0,
};

export const counted = (
  counters: ReportCounters,
  reasons?: ReasonCounts,
  conversions?: ConversionCounts,
): Counted => ({
  ...counters,
  ...(conversions ?? NO_CONVERSIONS),
  unbilledByReason: reasons ?? {},
});

export function sum(rows: Counted[]): Counted {
  const total: Counted = counted(NO_COUNTERS, {}, { ...NO_CONVERSIONS, conversionsByEvent: {} });
  for (const r of rows) {
    total.impressions += r.impressions;
    total.clicks += r.clicks;
    total.invalidClicks += r.invalidClicks;
    total.spendMicros += r.spendMicros;
    total.earningsMicros += r.earningsMicros;
    total.viewedImpressions += r.viewedImpressions;
    total.conversions += r.conversions;
    total.conversionValueMicros += r.conversionValueMicros;
    total.conversionsReceived += r.conversionsReceived;
    addCounts(total.unbilledByReason, r.unbilledByReason);
    addCounts(total.conversionsByEvent, r.conversionsByEvent);
  }
  return total;
}

function addCounts(total: Record<string, number>, add: Record<string, number>): void {
  for (const [name, count] of Object.entries(add)) total[name] = (total[name] ?? 0) + count;
}

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;
const ratio = (part: number, whole: number) => (whole > 0 ? round6(part / whole) : 0);

/** The figures of a row or the totals; money becomes decimal units only here, at the edge. */
export function figures(c: Counted): ReportFiguresDto {
  return {
    impressions: c.impressions,
    clicks: c.clicks,
    invalid_clicks: c.invalidClicks,
    ctr: ratio(c.clicks, c.impressions),
    spend: microsToUnits(c.spendMicros),
    invalid_click_rate: ratio(c.invalidClicks, c.clicks + c.invalidClicks),
    unbilled_by_reason: inReportOrder(c.unbilledByReason),
    viewed_impressions: c.viewedImpressions,
    view_rate: ratio(c.viewedImpressions, c.impressions),
    conversions: c.conversions,
    conversions_by_event: Object.fromEntries(
      Object.entries(c.conversionsByEvent).sort(([a], [b]) => (a < b ? -1 : 1)),
    ),
    conversion_rate: ratio(c.conversions, c.clicks),
    conversion_value: microsToUnits(c.conversionValueMicros),
    cost_per_conversion:
      c.conversions > 0 ? microsToUnits(Math.round(c.spendMicros / c.conversions)) : null,
    roas: c.spendMicros > 0 ? round6(c.conversionValueMicros / c.spendMicros) : null,
    conversions_received: c.conversionsReceived,
  };
}

/** The platform keeps what the publisher did not earn, micro for micro, as in the ledger. */
export function shares(c: Counted): PublisherReportTotalsDto {
  return {
    ...figures(c),
    publisher_earnings: microsToUnits(c.earningsMicros),
    platform_revenue: microsToUnits(c.spendMicros - c.earningsMicros),
  };
}

/** The known reasons first, in their order, then any other (never dropped), by name. */
export function reasonOrder(reasons: Iterable<string>): string[] {
  const known: readonly string[] = UNBILLED_REASONS;
  const others = [...new Set(reasons)].filter((r) => !known.includes(r)).sort();
  return [...known, ...others];
}

function inReportOrder(counts: ReasonCounts): ReasonCounts {
  const ordered: ReasonCounts = {};
  for (const reason of reasonOrder(Object.keys(counts))) {
    if (counts[reason]) ordered[reason] = counts[reason];
  }
  return ordered;
}
