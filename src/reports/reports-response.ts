import { applyDecorators, type Type } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiProduces, getSchemaPath } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { ReportFormat } from './dto/reports.dto';
import { type CsvTable, toCsv } from './reports-csv';

/**
 * Whether an `Accept` header prefers CSV: it names `text/csv` with a higher quality than
 * `application/json` (or without it). Wildcards choose nothing: JSON stays the default.
 */
export function acceptsCsv(accept: string | undefined): boolean {
  if (!accept) return false;
  const quality = (type: string) => {
    for (const range of accept.split(',')) {
      const [name, ...params] = range.split(';').map((part) => part.trim().toLowerCase());
      if (name !== type) continue;
      const q = params.find((p) => p.startsWith('q='));
      const value = q === undefined ? 1 : Number(q.slice(2));
      return Number.isFinite(value) ? value : 0;
    }
    return 0;
  };
  const csv = quality('text/csv');
  return csv > 0 && csv > quality('application/json');
}

/**
 * The report as JSON, or as a CSV download of the same figures with `format=csv`, or without
 * `format` when the request's `Accept` prefers `text/csv`; `format=json` always answers JSON.
 */
export function replyWithReport<T>(
  reply: FastifyReply,
  format: ReportFormat | undefined,
  report: T,
  toTable: (report: T) => CsvTable,
): T | string {
  const csv =
    format === 'csv' || (format === undefined && acceptsCsv(reply.request.headers.accept));
  if (!csv) return report;
  const table = toTable(report);
  void reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${table.filename}"`);
  return toCsv(table);
}

/** Documents a report route's two forms: JSON (`type`) and `text/csv`. */
export function ApiReportResponse(type: Type<unknown>, csvExample: string): MethodDecorator {
  return applyDecorators(
    ApiExtraModels(type),
    ApiProduces('application/json', 'text/csv'),
    ApiOkResponse({
      description:
        'The report: JSON, or CSV (as an attachment) with `format=csv` or with `Accept: text/csv` and no `format`.',
      content: {
        'application/json': { schema: { $ref: getSchemaPath(type) } },
        'text/csv': { schema: { type: 'string' }, example: csvExample },
      },
    }),
  );
}
