import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { IsRequired } from '@/common/validators';

/**
 * A query parameter as the query string gives it: once, or repeated (an array). Documented
 * as a string, the one shape a link carries; a repeated one is tolerated, not offered.
 */
export type QueryValue = string | string[];

/**
 * The query of a tracking link (`campaign_id`, `model_id`, `targetLink`, plus `imp` and
 * `sig`). Only a missing or invalid `campaign_id` is refused (400): with a known campaign,
 * any other altered value (missing, repeated, too long) still redirects the person, and the
 * click is recorded unbilled as `bad_signature` (see ClickService).
 */
export class ClickQueryDto {
  @ApiProperty({
    description: 'Identifier of the campaign.',
    example: '019a8a3e-5b1c-7cc1-9d0e-3f2a1b4c5d6e',
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  @IsRequired()
  campaign_id: string;

  @ApiPropertyOptional({
    type: String,
    description:
      "Identifier of the publisher's AI model. Missing, empty, repeated or longer than 64 characters, the link is recorded as bad_signature (the first value kept, cut to 64 characters).",
    example: '019a8a3e-5b1c-7cc1-9d0e-000000000001',
  })
  @IsOptional()
  @Allow()
  model_id?: QueryValue;

  @ApiPropertyOptional({
    type: String,
    description:
      "URL-encoded destination of the ad. Informational, whatever its shape: the redirect always goes to the campaign's own target URL.",
    example: 'https://example.com/offer',
  })
  @IsOptional()
  @Allow()
  targetLink?: QueryValue;

  @ApiPropertyOptional({
    type: String,
    description:
      'Reference of the impression the link was served with. Missing, repeated or longer than 64 characters: recorded as bad_signature.',
  })
  @IsOptional()
  @Allow()
  imp?: QueryValue;

  @ApiPropertyOptional({
    type: String,
    description:
      'HMAC signature of the link; a forged link earns nothing. Missing, repeated or longer than 128 characters: recorded as bad_signature.',
  })
  @IsOptional()
  @Allow()
  sig?: QueryValue;
}
