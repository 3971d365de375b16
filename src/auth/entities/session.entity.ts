import { Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { IdColumn, RefColumn, TimestampColumn } from '@/database/columns';
import { Publisher } from '@/publishers/entities/publisher.entity';

/** A signed-in session. Kept server-side so that sign-out ends it for cookie and bearer alike. */
@Entity('sessions')
@Index('idx_sessions_publisher', ['publisherId'])
export class Session {
  @IdColumn() id: string;

  @RefColumn('publisher_id') publisherId: string;

  @ManyToOne(() => Publisher, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'publisher_id', foreignKeyConstraintName: 'fk_sessions_publisher' })
  publisher?: Publisher;

  @TimestampColumn('created_at') createdAt: Date;
  @TimestampColumn('expires_at') expiresAt: Date;
  @TimestampColumn('revoked_at', { nullable: true }) revokedAt: Date | null;
}
