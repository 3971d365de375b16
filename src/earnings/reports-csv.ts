import { stringify } from 'csv-stringify/sync';
import type {
  CampaignStatsDto,
  PublisherReportDto,
  PublisherReportTotalsDto,
  ReportFiguresDto,
} from './dto/reports.dto';

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
const figureCells = (f: ReportFiguresDto): CsvCell[] => FIGURES.map((name) => f[name]);
const shareCells = (s: PublisherReportTotalsDto): CsvCell[] => [
  ...figureCells(s),
  s.publisher_earnings,
  s.platform_revenue,
];

export function campaignStatsCsv(report: CampaignStatsDto): CsvTable {
  return {
    filename: `campaign-${report.campaign_id}-${report.from}-${report.to}.csv`,
    header: ['date', ...FIGURES],
    rows: [
      ...report.rows.map((row) => [row.date, ...figureCells(row)]),
      ['total', ...figureCells(report.totals)],
    ],
  };
}

export function publisherReportCsv(report: PublisherReportDto): CsvTable {
  return {
    filename: `publishers-${report.from}-${report.to}.csv`,
    header: [
      'publisher_id',
      'publisher_name',
      'publisher_email',
      ...FIGURES,
      'publisher_earnings',
      'platform_revenue',
    ],
    rows: [
      ...report.rows.map((row) => [
        row.publisher_id,
        row.publisher_name,
        row.publisher_email,
        ...shareCells(row),
      ]),
      ['total', null, null, ...shareCells(report.totals)],
    ],
  };
}
