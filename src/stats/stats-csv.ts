import type { StatsDto, StatsGroup, StatsTotalsDto } from './dto/stats.dto';
import type { UnbilledClicksDto } from './dto/unbilled-clicks.dto';
import { NO_FILL_REASONS } from '@/earnings/fill-outcomes';
import type { CsvTable } from '@/reports/reports-csv';

type Cell = string | number | null;

const BILLING = [
  'impressions',
  'clicks',
  'ctr',
  'rpm',
  'earnings',
  'test_impressions',
  'test_clicks',
  'viewed_impressions',
  'view_rate',
] as const;
const FILLS = ['requests', 'fills', 'fill_rate'] as const;

/** What names a row of each grouping, as columns before its figures. */
const ROW_KEYS: Record<StatsGroup, string[]> = {
  day: ['date', 'model_id'],
  model: ['model_id'],
  key: ['key_id', 'model_id', 'key_prefix', 'key_label'],
  campaign: ['campaign_id', 'campaign_name'],
};

/**
 * A publisher's statistics as `GET /api/stats?format=csv` downloads them: a line per row of
 * the grouping (`group_by`), then the totals, amounts in units. Per day or model every
 * no-fill reason has its `no_fill_<reason>` column (0 when it had no requests), and a
 * `fill_rate` without requests is an empty cell; rows per key or campaign have no fill
 * figures, so neither has their CSV.
 */
export function statsCsv(stats: StatsDto, group: StatsGroup = 'day'): CsvTable {
  const withFills = group === 'day' || group === 'model';
  const cells = (f: StatsTotalsDto): Cell[] => [
    ...BILLING.map((name) => f[name]),
    ...(withFills
      ? [...FILLS.map((name) => f[name]), ...NO_FILL_REASONS.map((r) => f.no_fills[r] ?? 0)]
      : []),
  ];
  const keys = ROW_KEYS[group];
  return {
    filename: `stats-${group === 'day' ? '' : `by-${group}-`}${stats.from}-${stats.to}.csv`,
    header: [
      ...keys,
      ...BILLING,
      ...(withFills ? [...FILLS, ...NO_FILL_REASONS.map((r) => `no_fill_${r}`)] : []),
    ],
    rows: [
      ...stats.rows.map((row) => {
        const named = row as unknown as Record<string, Cell>;
        return [...keys.map((k) => named[k]), ...cells(row as StatsTotalsDto)];
      }),
      ['total', ...keys.slice(1).map(() => null), ...cells(stats.totals)],
    ],
  };
}

/** `GET /api/stats/unbilled-clicks?format=csv`: a line per day, model and reason, then a total per reason. */
export function unbilledClicksCsv(report: UnbilledClicksDto): CsvTable {
  return {
    filename: `unbilled-clicks-${report.from}-${report.to}.csv`,
    header: ['date', 'model_id', 'reason', 'clicks'],
    rows: [
      ...report.rows.map((r) => [r.date, r.model_id, r.reason, r.clicks]),
      ...report.totals.map((r) => ['total', null, r.reason, r.clicks]),
    ],
  };
}
