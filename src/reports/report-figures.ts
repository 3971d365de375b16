import { microsToUnits } from '@/common/money';
import type { PublisherReportTotalsDto, ReportFiguresDto } from './dto/reports.dto';
import type { ReasonCounts, ReportCounters } from './reports.repository';

export type { ReasonCounts };

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

/** A report row's counters with its unbilled clicks by reason. */
export interface Counted extends ReportCounters {
  unbilledByReason: ReasonCounts;
}

export const withReasons = (counters: ReportCounters, reasons?: ReasonCounts): Counted => ({
  ...counters,
  unbilledByReason: reasons ?? {},
});

export function sum(rows: Counted[]): Counted {
  const total: Counted = {
    impressions: 0,
    clicks: 0,
    invalidClicks: 0,
    spendMicros: 0,
    earningsMicros: 0,
    unbilledByReason: {},
  };
  for (const r of rows) {
    total.impressions += r.impressions;
    total.clicks += r.clicks;
    total.invalidClicks += r.invalidClicks;
    total.spendMicros += r.spendMicros;
    total.earningsMicros += r.earningsMicros;
    for (const [reason, clicks] of Object.entries(r.unbilledByReason)) {
      total.unbilledByReason[reason] = (total.unbilledByReason[reason] ?? 0) + clicks;
    }
  }
  return total;
}

const ratio = (part: number, whole: number) =>
  whole > 0 ? Math.round((part / whole) * 1e6) / 1e6 : 0;

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
