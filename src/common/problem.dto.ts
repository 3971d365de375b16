import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  PROBLEM_REASON_DETAILS,
  PROBLEM_TITLES,
  type ProblemCode,
  type ProblemReason,
} from './problem';

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
  @ApiProperty({ type: 'integer', example: 404 }) status: number;
  @ApiProperty({ example: 'No active campaign matches these keywords; try different keywords.' })
  detail: string;
  @ApiProperty({ description: 'Stable machine-readable code.', enum: Object.keys(PROBLEM_TITLES) })
  code: ProblemCode;
  @ApiPropertyOptional({ type: [FieldErrorDto], description: 'Present with `validation_failed`.' })
  errors?: FieldErrorDto[];
  @ApiPropertyOptional({
    enum: Object.keys(PROBLEM_REASON_DETAILS),
    description:
      'Present with `no_matching_ad`: why fetch-ads found no ad. `no_match`: no active campaign matches the keywords. `no_targeted_match`: campaigns match the keywords, but their location or device targeting excludes this user (`user_location`, `user_device_info`). `sensitive_topic`: the conversation or keywords touch a sensitive topic (self-harm, a medical emergency, a mental-health crisis, abuse or violence, sexual content, minors, a tragedy or disaster, elections or politics), next to which no ad is shown; which topic or words is never said. Whatever the reason, show the reply without an ad.',
    example: 'no_match',
  })
  reason?: ProblemReason;
}
