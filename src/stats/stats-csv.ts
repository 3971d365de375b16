import type { StatsDto, StatsTotalsDto } from './dto/stats.dto';
import { NO_FILL_REASONS } from '@/earnings/fill-outcomes';
import type { CsvTable } from '@/reports/reports-csv';

const FIGURES = [
  'impressions',
  'clicks',
  'ctr',
  'earnings',
  'test_impressions',
  'test_clicks',
  'requests',
  'fills',
  'fill_rate',
] as const;

/**
 * A publisher's statistics as `GET /api/stats?format=csv` downloads them: one line per day
 * and model, then the totals; every no-fill reason has its `no_fill_<reason>` column (0 when
 * it had no requests), and a `fill_rate` without requests is an empty cell.
 */
export function statsCsv(stats: StatsDto): CsvTable {
  const cells = (f: StatsTotalsDto) => [
    ...FIGURES.map((name) => f[name]),
    ...NO_FILL_REASONS.map((reason) => f.no_fills[reason] ?? 0),
  ];
  return {
    filename: `stats-${stats.from}-${stats.to}.csv`,
    header: ['date', 'model_id', ...FIGURES, ...NO_FILL_REASONS.map((r) => `no_fill_${r}`)],
    rows: [
      ...stats.rows.map((row) => [row.date, row.model_id, ...cells(row)]),
      ['total', null, ...cells(stats.totals)],
    ],
  };
}
