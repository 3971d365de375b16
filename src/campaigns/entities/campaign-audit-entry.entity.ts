import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { IdColumn, RefColumn, TimestampColumn } from '@/database/columns';
import { Campaign } from './campaign.entity';

export const CAMPAIGN_AUDIT_ACTIONS = ['created', 'updated'] as const;
export type CampaignAuditAction = (typeof CAMPAIGN_AUDIT_ACTIONS)[number];

/**
 * Who changed which field of a campaign, and when: one row per changed field (or one per
 * creation, holding the whole first version). Values are JSON in the API's own form
 * (`0.35`, not micros), so an operator reads them as they were entered.
 */
@Entity('campaign_audit')
@Index('idx_campaign_audit_campaign_created', ['campaignId', 'createdAt'])
export class CampaignAuditEntry {
  @IdColumn() id: string;

  @RefColumn('campaign_id') campaignId: string;

  @ManyToOne(() => Campaign, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'campaign_id', foreignKeyConstraintName: 'fk_campaign_audit_campaign' })
  campaign?: Campaign;

  /** The operator's account; null for changes the service made itself (seeding, tests). */
  @RefColumn('actor_id', { nullable: true }) actorId: string | null;

  @Column({ type: 'varchar', length: 16 }) action: CampaignAuditAction;

  /** The API name of the changed field; null for a creation. */
  @Column({ type: 'varchar', length: 32, nullable: true }) field: string | null;

  @Column({ name: 'old_value', type: 'text', nullable: true }) oldValue: string | null;
  @Column({ name: 'new_value', type: 'text', nullable: true }) newValue: string | null;

  @TimestampColumn('created_at') createdAt: Date;
}
