import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PROBLEM_TITLES, type ProblemCode } from './problem';

export class FieldErrorDto {
  @ApiProperty({ example: 'context_keywords' }) field: string;
  @ApiProperty({ example: 'context_keywords must be a string' }) message: string;
}

/** RFC 9457 problem details: the body of every error answer. */
export class ProblemDetailsDto {
  @ApiProperty({
    description: 'URI naming the kind of problem.',
    example: 'urn:adline:problem:no_matching_ad',
  })
  type: string;
  @ApiProperty({ example: 'No matching ad' }) title: string;
  @ApiProperty({ example: 404 }) status: number;
  @ApiProperty({ example: 'No active campaign matches these keywords; try different keywords.' })
  detail: string;
  @ApiProperty({ description: 'Stable machine-readable code.', enum: Object.keys(PROBLEM_TITLES) })
  code: ProblemCode;
  @ApiPropertyOptional({ type: [FieldErrorDto], description: 'Present with `validation_failed`.' })
  errors?: FieldErrorDto[];
}
