import { Column, Entity, Index } from 'typeorm';
import type { PublisherRole } from '@/common/principal';
import { IdColumn, TimestampColumn } from '@/database/columns';

export type { PublisherRole };
export const PUBLISHER_STATUSES = ['active', 'suspended'] as const;
export type PublisherStatus = (typeof PUBLISHER_STATUSES)[number];

@Entity('publishers')
export class Publisher {
  @IdColumn() id: string;

  @Index('uq_publishers_email', { unique: true })
  @Column({ type: 'varchar', length: 254 })
  email: string;

  @Column({ type: 'varchar', length: 100 }) name: string;

  @Column({ name: 'password_hash', type: 'varchar', length: 255, nullable: true })
  passwordHash: string | null;

  @Column({ type: 'varchar', length: 16 }) role: PublisherRole;

  @Column({ type: 'varchar', length: 16 }) status: PublisherStatus;

  /** The publisher's share of each billed click, in parts per million (700000 = 70 %). */
  @Column({ name: 'revenue_share_ppm', type: 'integer' }) revenueSharePpm: number;

  /** When the account proved it receives mail at `email`; null until then. */
  @TimestampColumn('email_verified_at', { nullable: true }) emailVerifiedAt: Date | null;

  @TimestampColumn('created_at') createdAt: Date;
  @TimestampColumn('updated_at') updatedAt: Date;
}
