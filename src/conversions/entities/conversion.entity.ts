import { Column, Entity, Index } from 'typeorm';
import { IdColumn, MicrosColumn, RefColumn, TimestampColumn } from '@/database/columns';

export type ConversionSource = 'api' | 'pixel';

/**
 * A conversion an advertiser reported for one of its clicks, with who the click counts for
 * (campaign, impression, publisher, model) copied from it. Unique per advertiser and event
 * id: the same event sent again is the same conversion.
 */
@Entity('conversions')
@Index('uq_conversions_advertiser_event', ['advertiserId', 'eventId'], { unique: true })
@Index('idx_conversions_campaign_occurred', ['campaignId', 'occurredAt'])
@Index('idx_conversions_click', ['clickId'])
export class Conversion {
  @IdColumn() id: string;
  @RefColumn('advertiser_id') advertiserId: string;
  @RefColumn('campaign_id') campaignId: string;
  @RefColumn('click_id') clickId: string;
  @RefColumn('impression_id', { nullable: true }) impressionId: string | null;
  @RefColumn('publisher_id', { nullable: true }) publisherId: string | null;
  @Column({ name: 'model_id', type: 'varchar', length: 64 }) modelId: string;
  @Column({ type: 'varchar', length: 64 }) event: string;
  @Column({ name: 'event_id', type: 'varchar', length: 128 }) eventId: string;
  @MicrosColumn('value_micros', { nullable: true }) valueMicros: number | null;
  @Column({ type: 'varchar', length: 3 }) currency: string;
  @TimestampColumn('occurred_at') occurredAt: Date;
  @TimestampColumn('click_at') clickAt: Date;
  @TimestampColumn('received_at') receivedAt: Date;
  @Column({ type: 'varchar', length: 8 }) source: ConversionSource;
}
