import { stringify } from 'csv-stringify/sync';
import type {
  CampaignStatsDto,
  ModelReportDto,
  PublisherReportDto,
  PublisherReportTotalsDto,
  ReportFiguresDto,
} from './dto/reports.dto';
import { reasonOrder } from './report-figures';

type CsvCell = string | number | null;

export interface CsvTable {
  filename: string;
  header: string[];
  rows: CsvCell[][];
}

/**
 * RFC 4180 CSV (CRLF, quoted where needed). A text cell that starts with = + - @, a tab or
 * a carriage return gets a leading single quote, so a spreadsheet shows it instead of
 * running it as a formula; numbers are written as they are.
 */
export function toCsv(table: CsvTable): string {
  return stringify([table.header, ...table.rows], {
    escape_formulas: true,
    record_delimiter: 'windows',
    // A lone CR or LF ends a line for many readers, so a cell holding one is quoted too.
    quoted_match: /[\r\n]/,
  });
}

const FIGURES = ['impressions', 'clicks', 'invalid_clicks', 'ctr', 'spend'] as const;
const VIEWS = ['viewed_impressions', 'view_rate'] as const;
const CONVERSIONS = [
  'conversions',
  'conversion_rate',
  'conversion_value',
  'cost_per_conversion',
  'roas',
  'conversions_received',
] as const;
const SHARES = ['publisher_earnings', 'platform_revenue'] as const;

/**
 * The figures' columns: those above, the invalid share, then one `unbilled_<reason>` column
 * per known reason (0 when none), plus any other reason the report holds, so none is lost,
 * then the views, the conversions and one `event_<event>` column per event the report has
 * conversions of (an empty cell: a null figure).
 */
function figureColumns(report: { totals: ReportFiguresDto }, shares: boolean) {
  const reasons = reasonOrder(Object.keys(report.totals.unbilled_by_reason));
  const events = Object.keys(report.totals.conversions_by_event).sort();
  return {
    header: [
      ...FIGURES,
      ...(shares ? SHARES : []),
      'invalid_click_rate',
      ...reasons.map((r) => `unbilled_${r}`),
      ...VIEWS,
      ...CONVERSIONS,
      ...events.map((e) => `event_${e}`),
    ],
    cells: (f: ReportFiguresDto | PublisherReportTotalsDto): CsvCell[] => [
      ...FIGURES.map((name) => f[name]),
      ...(shares ? SHARES.map((name) => (f as PublisherReportTotalsDto)[name]) : []),
      f.invalid_click_rate,
      ...reasons.map((r) => f.unbilled_by_reason[r] ?? 0),
      ...VIEWS.map((name) => f[name]),
      ...CONVERSIONS.map((name) => f[name]),
      ...events.map((e) => f.conversions_by_event[e] ?? 0),
    ],
  };
}

export function campaignStatsCsv(report: CampaignStatsDto): CsvTable {
  const { header, cells } = figureColumns(report, false);
  return {
    filename: `campaign-${report.campaign_id}-${report.from}-${report.to}.csv`,
    header: ['date', ...header],
    rows: [
      ...report.rows.map((row) => [row.date, ...cells(row)]),
      ['total', ...cells(report.totals)],
    ],
  };
}

export function publisherReportCsv(report: PublisherReportDto): CsvTable {
  const { header, cells } = figureColumns(report, true);
  return {
    filename: `publishers-${report.from}-${report.to}.csv`,
    header: ['publisher_id', 'publisher_name', 'publisher_email', ...header],
    rows: [
      ...report.rows.map((row) => [
        row.publisher_id,
        row.publisher_name,
        row.publisher_email,
        ...cells(row),
      ]),
      ['total', null, null, ...cells(report.totals)],
    ],
  };
}

export function modelReportCsv(report: ModelReportDto): CsvTable {
  const { header, cells } = figureColumns(report, true);
  return {
    filename: `models-${report.from}-${report.to}.csv`,
    header: ['publisher_id', 'model_id', 'model_name', ...header],
    rows: [
      ...report.rows.map((row) => [row.publisher_id, row.model_id, row.model_name, ...cells(row)]),
      ['total', null, null, ...cells(report.totals)],
    ],
  };
}
