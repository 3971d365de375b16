import { applyDecorators, type Type } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiProduces, getSchemaPath } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { ReportFormat } from './dto/reports.dto';
import { type CsvTable, toCsv } from './reports-csv';

/** The report as JSON, or with `format=csv` as a CSV download of the same figures. */
export function replyWithReport<T>(
  reply: FastifyReply,
  format: ReportFormat | undefined,
  report: T,
  toTable: (report: T) => CsvTable,
): T | string {
  if (format !== 'csv') return report;
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
      description: 'The report: JSON, or CSV with `format=csv` (as an attachment).',
      content: {
        'application/json': { schema: { $ref: getSchemaPath(type) } },
        'text/csv': { schema: { type: 'string' }, example: csvExample },
      },
    }),
  );
}
