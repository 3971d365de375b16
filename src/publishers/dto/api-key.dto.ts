import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { IsOmittable, IsText } from '@/common/validators';
import {
  API_KEY_KINDS,
  API_KEY_STATUSES,
  type ApiKey,
  type ApiKeyKind,
  type ApiKeyStatus,
} from '../entities/api-key.entity';

const KIND_DESCRIPTION =
  '`live` (`adl_live_…`): its ads and clicks are billed and earn. `test` (`adl_test_…`): the same matching, ads and working tracking links, but nothing is billed: its impressions and clicks never reach campaign spend, the ledger or earnings, and `GET /api/stats` shows them apart (`test_impressions`, `test_clicks`). Use a test key while building an integration.';

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

  @ApiPropertyOptional({
    enum: API_KEY_KINDS,
    default: 'live',
    description: `${KIND_DESCRIPTION} Left out: \`live\`.`,
    example: 'test',
  })
  @IsOmittable()
  @IsIn(API_KEY_KINDS)
  kind?: ApiKeyKind;
}

export class ApiKeyDto {
  @ApiProperty({ format: 'uuid', example: '019a8a3e-5b1c-7cc1-9d0e-3f2a1b4c5d6e' }) id: string;
  @ApiProperty({
    description: 'The first characters of the key, to recognise it.',
    example: 'adl_live_Ab3',
  })
  prefix: string;
  @ApiProperty({ type: String, nullable: true, example: 'production' }) label: string | null;
  @ApiProperty({ enum: API_KEY_STATUSES }) status: ApiKeyStatus;
  @ApiProperty({ enum: API_KEY_KINDS, description: KIND_DESCRIPTION, example: 'live' })
  kind: ApiKeyKind;
  @ApiProperty({ format: 'date-time', example: '2026-11-21T12:00:00.000Z' }) created_at: string;
  @ApiProperty({
    format: 'date-time',
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
    kind: key.kind,
    created_at: key.createdAt.toISOString(),
    last_used_at: lastUsedAt?.toISOString() ?? null,
  };
}
