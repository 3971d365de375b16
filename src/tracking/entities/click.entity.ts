import { Column, Entity, Index } from 'typeorm';
import { IdColumn, MicrosColumn, RefColumn, TimestampColumn } from '@/database/columns';

/** billed: paid by the campaign; over_budget: valid but the budget was spent; invalid: never billed. */
export type ClickStatus = 'billed' | 'over_budget' | 'invalid';

/** Why a click was not billed; docs/api.md, "The click rules", describes each. */
export type InvalidClickReason =
  // The link or its impression does not hold.
  | 'bad_signature'
  | 'unknown_impression'
  | 'mismatch'
  | 'duplicate'
  | 'expired'
  // No person followed it: a script or crawler, a HEAD request, a browser's prefetch.
  | 'bot'
  | 'head_request'
  | 'prefetch'
  // Sooner after the ad was served than a person reads and clicks.
  | 'too_fast'
  // The client IP has had its billed clicks for now.
  | 'ip_limit'
  // Who earns or pays may no longer: judged against the current rows at click time.
  | 'publisher_suspended'
  | 'model_inactive'
  | 'key_revoked'
  | 'campaign_inactive'
  // The ad was served to a test key: test traffic is never billed, whatever else holds.
  | 'test';

/** Every follow of a tracking link, valid or not: the raw material of click reports. */
@Entity('clicks')
@Index('idx_clicks_campaign_created', ['campaignId', 'createdAt'])
@Index('idx_clicks_model_created', ['modelId', 'createdAt'])
@Index('idx_clicks_impression', ['impressionId'])
@Index('idx_clicks_ip_created', ['ipHash', 'createdAt'])
export class Click {
  @IdColumn() id: string;
  @TimestampColumn('created_at') createdAt: Date;
  @RefColumn('impression_id', { nullable: true }) impressionId: string | null;
  @RefColumn('campaign_id') campaignId: string;
  /** As given in the link; for an invalid click it may name no real model. */
  @Column({ name: 'model_id', type: 'varchar', length: 64 }) modelId: string;
  @RefColumn('publisher_id', { nullable: true }) publisherId: string | null;
  @Column({ type: 'varchar', length: 16 }) status: ClickStatus;
  @Column({ name: 'invalid_reason', type: 'varchar', length: 32, nullable: true })
  invalidReason: InvalidClickReason | null;
  @MicrosColumn('cost_micros') costMicros: number;
  @MicrosColumn('publisher_earnings_micros') publisherEarningsMicros: number;
  @Column({ name: 'user_agent', type: 'varchar', length: 512, nullable: true })
  userAgent: string | null;
  /**
   * Keyed hash of the client's network (IPv4 address or IPv6 /64), for the per-IP limits;
   * the IP itself is never stored.
   */
  @Column({ name: 'ip_hash', type: 'varchar', length: 64, nullable: true })
  ipHash: string | null;
}
