import { ApiProperty } from '@nestjs/swagger';
import { ppmToShare } from '@/common/money';
import { PUBLISHER_ROLES } from '@/common/principal';
import {
  PUBLISHER_STATUSES,
  type Publisher,
  type PublisherRole,
  type PublisherStatus,
} from '../entities/publisher.entity';

export class PublisherDto {
  @ApiProperty({ format: 'uuid', example: '019a8a3e-5b1c-7cc1-9d0e-3f2a1b4c5d6e' }) id: string;
  @ApiProperty({ example: 'ada@example.com' }) email: string;
  @ApiProperty({ example: 'Ada Publishing' }) name: string;
  @ApiProperty({ enum: PUBLISHER_ROLES }) role: PublisherRole;
  @ApiProperty({ enum: PUBLISHER_STATUSES }) status: PublisherStatus;
  @ApiProperty({
    description: "The publisher's share of each billed click, as a fraction.",
    example: 0.7,
  })
  revenue_share: number;
  @ApiProperty({
    description:
      'Whether the account has confirmed its email address (the link of its verification mail).',
  })
  email_verified: boolean;
  @ApiProperty({ format: 'date-time', example: '2026-11-21T12:00:00.000Z' }) created_at: string;
}

/** The fields a client may see of a publisher, listed one by one (never the entity). */
export function toPublisherDto(publisher: Publisher): PublisherDto {
  return {
    id: publisher.id,
    email: publisher.email,
    name: publisher.name,
    role: publisher.role,
    status: publisher.status,
    revenue_share: ppmToShare(publisher.revenueSharePpm),
    email_verified: publisher.emailVerifiedAt !== null,
    created_at: publisher.createdAt.toISOString(),
  };
}
