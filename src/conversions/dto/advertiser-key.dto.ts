import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { IsText } from '@/common/validators';
import type { AdvertiserApiKey } from '../entities/advertiser-api-key.entity';

export class CreateAdvertiserKeyDto {
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: 100,
    description: 'A name to tell keys apart, e.g. where it is used.',
    example: 'shop backend',
  })
  @IsOptional()
  @IsText({ min: 1, max: 100 })
  label?: string | null;
}

export class AdvertiserKeyDto {
  @ApiProperty({ format: 'uuid', example: '019a8a3e-5b1c-7cc1-9d0e-3f2a1b4c5d6e' }) id: string;
  @ApiProperty({ description: 'The first 12 characters of the key.', example: 'adl_adv_Ab3x' })
  key_prefix: string;
  @ApiProperty({ type: String, nullable: true, example: 'shop backend' }) label: string | null;
  @ApiProperty({ format: 'date-time', example: '2026-11-21T12:00:00.000Z' }) created_at: string;
  @ApiProperty({
    format: 'date-time',
    type: String,
    nullable: true,
    description: 'When it was revoked; null while it works.',
    example: null,
  })
  revoked_at: string | null;
}

export class CreatedAdvertiserKeyDto extends AdvertiserKeyDto {
  @ApiProperty({
    description: 'The whole key, shown this once: only its hash is stored.',
    example: 'adl_adv_Ab3xQ9…',
  })
  key: string;
}

export class AdvertiserKeyListDto {
  @ApiProperty({ type: [AdvertiserKeyDto], description: 'Newest first, without secrets.' })
  keys: AdvertiserKeyDto[];
}

export function toAdvertiserKeyDto(key: AdvertiserApiKey): AdvertiserKeyDto {
  return {
    id: key.id,
    key_prefix: key.keyPrefix,
    label: key.label,
    created_at: key.createdAt.toISOString(),
    revoked_at: key.revokedAt?.toISOString() ?? null,
  };
}
