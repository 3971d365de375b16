import { Column, Entity } from 'typeorm';
import { IdColumn, TimestampColumn } from '@/database/columns';

export const ADVERTISER_STATUSES = ['active', 'inactive'] as const;
export type AdvertiserStatus = (typeof ADVERTISER_STATUSES)[number];

@Entity('advertisers')
export class Advertiser {
  @IdColumn() id: string;
  @Column({ type: 'varchar', length: 200 }) name: string;
  @Column({ name: 'contact_email', type: 'varchar', length: 254, nullable: true })
  contactEmail: string | null;
  @Column({ type: 'varchar', length: 16 }) status: AdvertiserStatus;
  @TimestampColumn('created_at') createdAt: Date;
  @TimestampColumn('updated_at') updatedAt: Date;
}
