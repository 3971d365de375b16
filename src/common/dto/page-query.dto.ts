import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

export const MAX_PER_PAGE = 100;
export const DEFAULT_PER_PAGE = 50;
/** Bounds the row offset (at most 10^8), which the databases take as a 64-bit integer. */
export const MAX_PAGE = 1_000_000;

/**
 * Only plain decimal digits become a number: `0x10`, `1e3` or a repeated parameter stay as
 * given, so the client hears "must be an integer" rather than a paging rule they did not break.
 */
const digitsToNumber = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;

/**
 * `page` (from 1) and `per_page`, as the other admin lists take them. Stacked decorators run
 * bottom-up; the validation pipe reports a wrong type before any bound (common/validation.ts).
 */
export class PageQueryDto {
  @ApiPropertyOptional({
    type: 'integer',
    description: 'The page to answer, from 1.',
    minimum: 1,
    maximum: MAX_PAGE,
    default: 1,
  })
  @Max(MAX_PAGE)
  @Min(1)
  @IsInt({ message: '$property must be a whole number' })
  @Transform(digitsToNumber)
  @IsOptional()
  page?: number;

  @ApiPropertyOptional({
    type: 'integer',
    description: 'Items per page.',
    minimum: 1,
    maximum: MAX_PER_PAGE,
    default: DEFAULT_PER_PAGE,
  })
  @Max(MAX_PER_PAGE)
  @Min(1)
  @IsInt({ message: '$property must be a whole number' })
  @Transform(digitsToNumber)
  @IsOptional()
  per_page?: number;
}

export interface Page {
  page: number;
  perPage: number;
  offset: number;
}

export function pageOf(query: PageQueryDto): Page {
  const page = query.page ?? 1;
  const perPage = query.per_page ?? DEFAULT_PER_PAGE;
  return { page, perPage, offset: (page - 1) * perPage };
}
