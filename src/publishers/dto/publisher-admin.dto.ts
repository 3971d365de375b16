import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { PageQueryDto } from '@/common/dto/page-query.dto';
import { IsOmittable, IsRevenueShare, IsText } from '@/common/validators';
import type { PublisherAuditEntry } from '../entities/publisher-audit-entry.entity';
import { PUBLISHER_STATUSES, type PublisherStatus } from '../entities/publisher.entity';
import { ModelDto } from './model.dto';
import { PublisherDto } from './publisher.dto';

/** `page` and `per_page`, as every admin list takes them. */
export class PublisherListQueryDto extends PageQueryDto {}

export class PublisherPageDto {
  @ApiProperty({ type: [PublisherDto] }) items: PublisherDto[];
  @ApiProperty({ type: 'integer', example: 1 }) page: number;
  @ApiProperty({ type: 'integer', example: 50 }) per_page: number;
  @ApiProperty({ type: 'integer', description: 'Publishers in all pages.', example: 1 })
  total: number;
}

export class UpdatePublisherDto {
  @ApiPropertyOptional({
    description:
      "The publisher's share of each billed click, a fraction from 0 to 1 with at most 6 decimals. Applies to impressions served from now on.",
    example: 0.75,
    minimum: 0,
    maximum: 1,
  })
  @IsOmittable()
  @IsRevenueShare()
  revenue_share?: number;

  @ApiPropertyOptional({
    enum: PUBLISHER_STATUSES,
    description:
      '`suspended`: the publisher can no longer sign in or use the API, and its keys answer 404 `model_inactive` at once; `active` restores both.',
  })
  @IsOmittable()
  @IsIn(PUBLISHER_STATUSES)
  status?: PublisherStatus;

  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 500,
    description:
      "Why the status changes, kept in the publisher's audit (`GET /api/admin/publishers/{id}/audit`); only with `status`.",
    example: 'Repeated invalid clicks from one model.',
  })
  @IsOmittable()
  @IsText({ min: 1, max: 500 })
  reason?: string;
}

/** A publisher's models, as an operator sees them. */
export class PublisherModelListDto {
  @ApiProperty({ type: [ModelDto], description: 'Oldest first, deactivated ones included.' })
  models: ModelDto[];
}

export class PublisherAuditEntryDto {
  @ApiProperty({ format: 'uuid', example: '019a8a3e-5b1c-7cc1-9d0e-3f2a1b4c5d6e' }) id: string;
  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: "The operator's account that made the change; null: the service itself.",
  })
  actor_id: string | null;
  @ApiProperty({ enum: PUBLISHER_STATUSES, example: 'active' }) from_status: PublisherStatus;
  @ApiProperty({ enum: PUBLISHER_STATUSES, example: 'suspended' }) to_status: PublisherStatus;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Why, as the operator wrote it; null when none was given.',
    example: 'Repeated invalid clicks from one model.',
  })
  reason: string | null;
  @ApiProperty({ format: 'date-time', example: '2026-11-21T12:00:00.000Z' }) created_at: string;
}

export class PublisherAuditDto {
  @ApiProperty({ type: [PublisherAuditEntryDto], description: 'Newest first.' })
  entries: PublisherAuditEntryDto[];
}

/** The fields a client may see of an audit entry, listed one by one (never the entity). */
export function toPublisherAuditEntryDto(entry: PublisherAuditEntry): PublisherAuditEntryDto {
  return {
    id: entry.id,
    actor_id: entry.actorId,
    from_status: entry.oldStatus,
    to_status: entry.newStatus,
    reason: entry.reason,
    created_at: entry.createdAt.toISOString(),
  };
}
