import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { IdColumn, RefColumn, TimestampColumn } from '@/database/columns';
import { Publisher } from '@/publishers/entities/publisher.entity';

export const ACCOUNT_TOKEN_PURPOSES = ['password_reset', 'email_verification'] as const;
export type AccountTokenPurpose = (typeof ACCOUNT_TOKEN_PURPOSES)[number];

/** A one-time token mailed to an account's address; only its SHA-256 hash is stored. */
@Entity('account_tokens')
@Index('idx_account_tokens_publisher', ['publisherId'])
export class AccountToken {
  @IdColumn() id: string;

  @RefColumn('publisher_id') publisherId: string;

  @ManyToOne(() => Publisher, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'publisher_id', foreignKeyConstraintName: 'fk_account_tokens_publisher' })
  publisher?: Publisher;

  @Column({ type: 'varchar', length: 24 }) purpose: AccountTokenPurpose;

  /** Hex SHA-256 of the token: a leaked table cannot reset anyone's password. */
  @Index('uq_account_tokens_hash', { unique: true })
  @Column({ name: 'token_hash', type: 'varchar', length: 64 })
  tokenHash: string;

  @TimestampColumn('expires_at') expiresAt: Date;
  @TimestampColumn('used_at', { nullable: true }) usedAt: Date | null;
  @TimestampColumn('created_at') createdAt: Date;
}
