import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { IsText } from '@/common/validators';
import { API_KEY_STATUSES, type ApiKey, type ApiKeyStatus } from '../entities/api-key.entity';

export class CreateApiKeyDto {
  @ApiPropertyOptional({
    type: String,
    description: 'A name to tell keys apart, e.g. where the key is deployed.',
    example: 'production',
    minLength: 1,
    maxLength: 100,
    nullable: true,
  })
  @IsOptional()
  @IsText({ min: 1, max: 100 })
  label?: string | null;
}

export class ApiKeyDto {
  @ApiProperty({ example: '019a8a3e-5b1c-7cc1-9d0e-3f2a1b4c5d6e' }) id: string;
  @ApiProperty({
    description: 'The first characters of the key, to recognise it.',
    example: 'adl_live_Ab3',
  })
  prefix: string;
  @ApiProperty({ type: String, nullable: true, example: 'production' }) label: string | null;
  @ApiProperty({ enum: API_KEY_STATUSES }) status: ApiKeyStatus;
  @ApiProperty({ example: '2026-11-21T12:00:00.000Z' }) created_at: string;
  @ApiProperty({
    type: String,
    nullable: true,
    example: '2026-11-21T12:05:00.000Z',
    description: 'Last successful fetch-ads call with this key, to within about a minute.',
  })
  last_used_at: string | null;
}

export class CreatedApiKeyDto extends ApiKeyDto {
  @ApiProperty({
    description: 'The secret key. Shown only in this response; store it now.',
    example: 'adl_live_Ab3xq8V0n5cJ9rKf2Zt7LwYpHs4uDmEeQ1aBcNgTiOj',
  })
  key: string;
}

/** The fields a client may see of a key, never its hash; `lastUse` may be fresher than the row. */
export function toApiKeyDto(key: ApiKey, lastUse: Date | null = null): ApiKeyDto {
  const lastUsedAt =
    lastUse && (!key.lastUsedAt || lastUse > key.lastUsedAt) ? lastUse : key.lastUsedAt;
  return {
    id: key.id,
    prefix: key.prefix,
    label: key.label,
    status: key.status,
    created_at: key.createdAt.toISOString(),
    last_used_at: lastUsedAt?.toISOString() ?? null,
  };
}
