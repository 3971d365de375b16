import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { IdColumn, RefColumn, TimestampColumn } from '@/database/columns';
import { Publisher } from './publisher.entity';

export const MODEL_STATUSES = ['active', 'deactivated'] as const;
export type ModelStatus = (typeof MODEL_STATUSES)[number];
/** Who deactivated a model: a publisher may reactivate only what it deactivated itself. */
export const MODEL_DEACTIVATORS = ['publisher', 'operator'] as const;
export type ModelDeactivator = (typeof MODEL_DEACTIVATORS)[number];

@Entity('ai_models')
@Index('idx_ai_models_publisher', ['publisherId'])
export class AiModel {
  @IdColumn() id: string;

  @RefColumn('publisher_id') publisherId: string;

  @ManyToOne(() => Publisher, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'publisher_id', foreignKeyConstraintName: 'fk_ai_models_publisher' })
  publisher?: Publisher;

  @Column({ type: 'varchar', length: 100 }) name: string;
  @Column({ type: 'varchar', length: 1000, nullable: true }) description: string | null;
  @Column({ type: 'varchar', length: 2048, nullable: true }) link: string | null;
  @Column({ type: 'varchar', length: 16 }) status: ModelStatus;
  @Column({ name: 'deactivated_by', type: 'varchar', length: 16, nullable: true })
  deactivatedBy: ModelDeactivator | null;

  /*
   * The publisher's controls (src/publishers/model-controls.ts). Lists are JSON, null when
   * empty; each its own TEXT column, so that the longest lists the API takes fit MySQL's
   * 64 KiB per column.
   */
  @Column({ name: 'blocked_categories', type: 'simple-json', nullable: true })
  blockedCategories: string[] | null;
  @Column({ name: 'blocked_advertisers', type: 'simple-json', nullable: true })
  blockedAdvertisers: string[] | null;
  @Column({ name: 'blocked_keywords', type: 'simple-json', nullable: true })
  blockedKeywords: string[] | null;
  /** 0–1,000,000: the least relevance served, in millionths of the best possible. */
  @Column({ name: 'relevance_floor_ppm', type: 'integer', default: 0 }) relevanceFloorPpm: number;
  /** Both null (no cap) or both set. */
  @Column({ name: 'frequency_cap_ads', type: 'integer', nullable: true })
  frequencyCapAds: number | null;
  @Column({ name: 'frequency_cap_minutes', type: 'integer', nullable: true })
  frequencyCapMinutes: number | null;

  @TimestampColumn('created_at') createdAt: Date;
  @TimestampColumn('updated_at') updatedAt: Date;
}
