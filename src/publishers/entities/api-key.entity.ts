import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { IdColumn, RefColumn, TimestampColumn } from '@/database/columns';
import { AiModel } from './ai-model.entity';

export const API_KEY_STATUSES = ['active', 'revoked'] as const;
export type ApiKeyStatus = (typeof API_KEY_STATUSES)[number];

/** live: its ads and clicks are billed; test: real ads and links, nothing billed (test mode). */
export const API_KEY_KINDS = ['live', 'test'] as const;
export type ApiKeyKind = (typeof API_KEY_KINDS)[number];

/** An API key of one AI model. Only the SHA-256 hash of the secret is ever stored. */
@Entity('api_keys')
@Index('idx_api_keys_model', ['modelId'])
export class ApiKey {
  @IdColumn() id: string;

  @RefColumn('model_id') modelId: string;

  @ManyToOne(() => AiModel, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'model_id', foreignKeyConstraintName: 'fk_api_keys_model' })
  model?: AiModel;

  /** The first characters of the secret, shown so that a person can recognise the key. */
  @Column({ type: 'varchar', length: 16 }) prefix: string;

  @Index('uq_api_keys_hash', { unique: true })
  @Column({ name: 'key_hash', type: 'varchar', length: 64 })
  keyHash: string;

  @Column({ type: 'varchar', length: 100, nullable: true }) label: string | null;
  @Column({ type: 'varchar', length: 16 }) status: ApiKeyStatus;
  /** Fixed at creation; keys made before test mode existed are live. */
  @Column({ type: 'varchar', length: 8, default: 'live' }) kind: ApiKeyKind;

  @TimestampColumn('created_at') createdAt: Date;
  @TimestampColumn('revoked_at', { nullable: true }) revokedAt: Date | null;
  @TimestampColumn('last_used_at', { nullable: true }) lastUsedAt: Date | null;
}
