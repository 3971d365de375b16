import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNumber, IsOptional, IsString, Length, Matches, Max, Min } from 'class-validator';
import { IsInstant, IsRequired } from '@/common/validators';

export const MAX_CONVERSIONS_PER_BATCH = 1000;

/** One conversion, as the API and the pixel take it; validated item by item. */
export class ConversionDto {
  @ApiProperty({
    description: "The click id the landing URL carried (the campaign's `click_id_param`).",
    example: 'AZqKPlscfMGdDj8qG0xdbh8iTK2Yq1u6cTgS7Xc4lRw',
  })
  @Length(1, 64)
  @IsString()
  @IsRequired()
  click_id: string;

  @ApiProperty({
    description: 'What happened: 1–64 characters of `a-z`, `0-9` and `_`.',
    example: 'purchase',
  })
  @Matches(/^[a-z0-9_]{1,64}$/, { message: '$property must be 1–64 characters of a-z, 0-9 and _' })
  @IsString()
  @IsRequired()
  event: string;

  @ApiProperty({
    description:
      "The advertiser's own id of this event (1–128 characters): the same id sent again is the same conversion (`duplicate`).",
    example: 'order-10023',
  })
  @Length(1, 128)
  @IsString()
  @IsRequired()
  event_id: string;

  @ApiProperty({
    format: 'date-time',
    description: 'When it happened (ISO 8601 with a zone); at most 5 minutes in the future.',
    example: '2026-11-21T12:00:00Z',
  })
  @IsInstant()
  @IsRequired()
  occurred_at: string;

  @ApiPropertyOptional({
    description: 'Its value in `currency`: at least 0, at most 2 decimals.',
    example: 49.9,
  })
  @IsOptional()
  @Max(1_000_000_000)
  @Min(0)
  @IsNumber({ maxDecimalPlaces: 2, allowNaN: false, allowInfinity: false })
  value?: number;

  @ApiPropertyOptional({
    description: 'ISO 4217 code of `value`.',
    default: 'USD',
    example: 'EUR',
  })
  @IsOptional()
  @Matches(/^[A-Z]{3}$/, { message: '$property must be an ISO 4217 code such as USD' })
  @IsString()
  currency?: string;
}

export class ConversionBatchDto {
  @ApiProperty({
    type: [ConversionDto],
    minItems: 1,
    maxItems: MAX_CONVERSIONS_PER_BATCH,
    description: 'Up to 1,000 conversions, each answered on its own, in order.',
  })
  conversions: ConversionDto[];
}

export const CONVERSION_STATUSES = ['accepted', 'duplicate', 'rejected'] as const;
export type ConversionStatus = (typeof CONVERSION_STATUSES)[number];
export const CONVERSION_REJECTIONS = [
  'click_not_found',
  'click_invalid',
  'outside_attribution_window',
  'validation_failed',
] as const;
export type ConversionRejection = (typeof CONVERSION_REJECTIONS)[number];

export class ConversionResultDto {
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'As sent; null when the item had no usable `event_id`.',
    example: 'order-10023',
  })
  event_id: string | null;
  @ApiProperty({ enum: CONVERSION_STATUSES, example: 'accepted' }) status: ConversionStatus;
  @ApiPropertyOptional({
    enum: CONVERSION_REJECTIONS,
    description:
      'Why it was rejected: `click_not_found` (unknown, forged or not one of your clicks), `click_invalid` (the click was judged invalid or came from a test key), `outside_attribution_window`, `validation_failed`.',
  })
  code?: ConversionRejection;
  @ApiPropertyOptional({
    format: 'uuid',
    description: 'The conversion recorded (the first one, for a duplicate).',
  })
  conversion_id?: string;
  @ApiPropertyOptional({ description: 'For `validation_failed`: what is wrong.' })
  detail?: string;
}

export class ConversionResultsDto {
  @ApiProperty({ type: [ConversionResultDto], description: 'One per conversion sent, in order.' })
  results: ConversionResultDto[];
}
