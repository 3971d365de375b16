import type { ReportFormat } from '@/reports/dto/reports.dto';
import type { CsvTable } from '@/reports/reports-csv';
import type { PayoutsDueDto, PublisherBalancesDto } from './dto/payout.dto';

const DUE_COLUMNS = [
  'publisher_id',
  'email',
  'name',
  'unpaid_balance',
  'earned_total',
  'paid_total',
  'last_payout_at',
] as const;

/** The payouts-due report as CSV: one line per publisher, the JSON rows' fields as columns. */
export function payoutsDueCsv(report: PayoutsDueDto): CsvTable {
  return {
    filename: 'payouts-due.csv',
    header: [...DUE_COLUMNS],
    rows: report.publishers.map((row) => DUE_COLUMNS.map((column) => row[column])),
  };
}

const BALANCE_COLUMNS = [
  'publisher_id',
  'email',
  'name',
  'earned_total',
  'paid_total',
  'unpaid_balance',
  'due',
  'last_payout_at',
] as const;

/** Every publisher's balance as CSV: one line per publisher, the JSON rows' fields as columns. */
export function balancesCsv(report: PublisherBalancesDto): CsvTable {
  return {
    filename: 'balances.csv',
    header: [...BALANCE_COLUMNS],
    rows: report.publishers.map((row) =>
      BALANCE_COLUMNS.map((column) => {
        const value = row[column];
        return typeof value === 'boolean' ? String(value) : value;
      }),
    ),
  };
}

/** `format` when the query names one, else CSV when the client accepts `text/csv`. */
export function requestedFormat(format: ReportFormat | undefined, accept = ''): ReportFormat {
  return format ?? (accept.includes('text/csv') ? 'csv' : 'json');
}
