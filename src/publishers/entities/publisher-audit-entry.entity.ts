import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { IdColumn, RefColumn, TimestampColumn } from '@/database/columns';
import { Publisher, type PublisherStatus } from './publisher.entity';

/**
 * One change of a publisher's status: who (an operator's account) suspended or reactivated
 * it, when, from which status to which, and why, as the operator wrote it.
 */
@Entity('publisher_audit')
@Index('idx_publisher_audit_publisher_created', ['publisherId', 'createdAt'])
export class PublisherAuditEntry {
  @IdColumn() id: string;

  @RefColumn('publisher_id') publisherId: string;

  @ManyToOne(() => Publisher, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'publisher_id', foreignKeyConstraintName: 'fk_publisher_audit_publisher' })
  publisher?: Publisher;

  /** The operator's account; null for changes the service made itself (seeding, tests). */
  @RefColumn('actor_id', { nullable: true }) actorId: string | null;

  @Column({ name: 'old_status', type: 'varchar', length: 16 }) oldStatus: PublisherStatus;
  @Column({ name: 'new_status', type: 'varchar', length: 16 }) newStatus: PublisherStatus;

  @Column({ type: 'varchar', length: 500, nullable: true }) reason: string | null;

  @TimestampColumn('created_at') createdAt: Date;
}
