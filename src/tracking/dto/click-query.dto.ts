import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';

/** The query of a tracking link (SPEC.md "Tracking link shape", plus `imp` and `sig`). */
export class ClickQueryDto {
  @ApiProperty({
    description: 'Identifier of the campaign.',
    example: '019a8a3e-5b1c-7cc1-9d0e-3f2a1b4c5d6e',
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  campaign_id: string;

  @ApiProperty({
    description: "Identifier of the publisher's AI model.",
    example: '019a8a3e-5b1c-7cc1-9d0e-000000000001',
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  model_id: string;

  @ApiPropertyOptional({
    description:
      "URL-encoded destination of the ad. Informational: the redirect always goes to the campaign's own target URL.",
    example: 'https://example.com/offer',
  })
  @IsOptional()
  @IsString()
  @MaxLength(4096)
  targetLink?: string;

  @ApiPropertyOptional({ description: 'Reference of the impression the link was served with.' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  imp?: string;

  @ApiPropertyOptional({ description: 'HMAC signature of the link; a forged link earns nothing.' })
  @IsOptional()
  @IsString()
  @MaxLength(128)
  sig?: string;
}
