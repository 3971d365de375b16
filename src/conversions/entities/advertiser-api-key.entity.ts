import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { Advertiser } from '@/campaigns/entities/advertiser.entity';
import { IdColumn, RefColumn, TimestampColumn } from '@/database/columns';

/** An advertiser's key for the conversions API; only its SHA-256 hash is stored. */
@Entity('advertiser_api_keys')
@Index('uq_advertiser_api_keys_hash', ['keyHash'], { unique: true })
@Index('idx_advertiser_api_keys_advertiser', ['advertiserId'])
export class AdvertiserApiKey {
  @IdColumn() id: string;
  @RefColumn('advertiser_id') advertiserId: string;

  @ManyToOne(() => Advertiser, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'advertiser_id',
    foreignKeyConstraintName: 'fk_advertiser_api_keys_advertiser',
  })
  advertiser?: Advertiser;

  @Column({ name: 'key_hash', type: 'varchar', length: 64 }) keyHash: string;
  @Column({ name: 'key_prefix', type: 'varchar', length: 16 }) keyPrefix: string;
  @Column({ type: 'varchar', length: 100, nullable: true }) label: string | null;
  @TimestampColumn('created_at') createdAt: Date;
  @TimestampColumn('revoked_at', { nullable: true }) revokedAt: Date | null;
}
