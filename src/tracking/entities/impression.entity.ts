import { Column, Entity, Index } from 'typeorm';
import { IdColumn, MicrosColumn, RefColumn, TimestampColumn } from '@/database/columns';

/**
 * One served ad. It keeps the bid and revenue share in force when it was served, so a later
 * click bills what the publisher was shown. High-volume and purged by retention, so it
 * carries plain indexed references instead of foreign keys.
 */
@Entity('impressions')
@Index('idx_impressions_model_created', ['modelId', 'createdAt'])
@Index('idx_impressions_campaign_created', ['campaignId', 'createdAt'])
@Index('idx_impressions_created', ['createdAt'])
export class Impression {
  @IdColumn() id: string;
  @TimestampColumn('created_at') createdAt: Date;
  @RefColumn('model_id') modelId: string;
  @RefColumn('publisher_id') publisherId: string;
  @RefColumn('campaign_id') campaignId: string;
  /** The API key that fetched the ad: a click after the key was revoked is not billed. */
  @RefColumn('api_key_id', { nullable: true }) apiKeyId: string | null;
  @MicrosColumn('bid_micros') bidMicros: number;
  @Column({ name: 'revenue_share_ppm', type: 'integer' }) revenueSharePpm: number;
  @Column({ type: 'varchar', length: 2, nullable: true }) country: string | null;
  @Column({ type: 'varchar', length: 16, nullable: true }) device: string | null;
  @Column({ name: 'user_location', type: 'varchar', length: 255, nullable: true })
  userLocation: string | null;
  @Column({ name: 'user_device_info', type: 'varchar', length: 512, nullable: true })
  userDeviceInfo: string | null;
  @Column({ type: 'varchar', length: 1000 }) keywords: string;
  /** Cut to CONVERSATION_MAX_CHARS; emptied by the retention purge. */
  @Column({ type: 'text', nullable: true }) conversation: string | null;
  /**
   * Served to a test key: its clicks are recorded as `test` and never billed, and it counts
   * in the roll-ups' test counters, not in their billable ones.
   */
  @Column({ type: 'boolean', default: false }) test: boolean;
  /** "Why this ad", as served (see `explanationColumns`); null on impressions from before. */
  @Column({ name: 'relevance_ppm', type: 'integer', nullable: true }) relevancePpm: number | null;
  @Column({ type: 'varchar', length: 1000, nullable: true }) matched: string | null;
  @Column({ name: 'campaign_targets', type: 'varchar', length: 1000, nullable: true })
  campaignTargets: string | null;
  /** Set by the first valid click; the guard against billing one impression twice. */
  @TimestampColumn('clicked_at', { nullable: true }) clickedAt: Date | null;
  /**
   * Set by the first view within VIEW_WINDOW_MINUTES, the guard against counting one twice;
   * optional because the writer never sets it (a new impression is unviewed).
   */
  @TimestampColumn('viewed_at', { nullable: true }) viewedAt?: Date | null;
}
