import { ApiProperty } from '@nestjs/swagger';
import {
  CAMPAIGN_AUDIT_ACTIONS,
  type CampaignAuditAction,
  type CampaignAuditEntry,
} from '../entities/campaign-audit-entry.entity';

/**
 * Any JSON value or null: a field's value as the campaign API shows it. `null` sits on one
 * branch only (OpenAPI 3.0 has no null type), so that a null still matches exactly one.
 */
const ANY_JSON = [
  { type: 'string', nullable: true },
  { type: 'number' },
  { type: 'array', items: {} },
  { type: 'object' },
];

export class CampaignAuditEntryDto {
  @ApiProperty({ format: 'uuid', example: '019a8a3e-5b1c-7cc1-9d0e-3f2a1b4c5d6e' }) id: string;
  @ApiProperty({ format: 'uuid', example: '019a8a3e-0000-7cc1-9d0e-3f2a1b4c5d6e' })
  campaign_id: string;
  @ApiProperty({
    format: 'uuid',
    type: String,
    nullable: true,
    description: "The operator's account id; null for changes the service made itself.",
  })
  actor_id: string | null;
  @ApiProperty({ enum: CAMPAIGN_AUDIT_ACTIONS }) action: CampaignAuditAction;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The changed field (API name); null for `created`.',
    example: 'bid_per_click',
  })
  field: string | null;
  @ApiProperty({
    oneOf: ANY_JSON,
    description: 'The value before the change, as the API shows it; null for `created`.',
    example: 0.35,
  })
  old_value: unknown;
  @ApiProperty({
    oneOf: ANY_JSON,
    description:
      'The value after the change; for `created`, an object of every audited field of the first version.',
    example: 0.4,
  })
  new_value: unknown;
  @ApiProperty({ format: 'date-time', example: '2026-11-21T12:00:00.000Z' }) created_at: string;
}

export class CampaignAuditPageDto {
  @ApiProperty({ type: [CampaignAuditEntryDto] }) items: CampaignAuditEntryDto[];
  @ApiProperty({ type: 'integer', example: 1 }) page: number;
  @ApiProperty({ type: 'integer', example: 50 }) per_page: number;
  @ApiProperty({ type: 'integer', description: 'Entries in all pages.', example: 1 }) total: number;
}

export function toCampaignAuditEntryDto(entry: CampaignAuditEntry): CampaignAuditEntryDto {
  return {
    id: entry.id,
    campaign_id: entry.campaignId,
    actor_id: entry.actorId,
    action: entry.action,
    field: entry.field,
    old_value: parseJson(entry.oldValue),
    new_value: parseJson(entry.newValue),
    created_at: entry.createdAt.toISOString(),
  };
}

const parseJson = (text: string | null): unknown => (text === null ? null : JSON.parse(text));
