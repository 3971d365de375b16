import { Column, Entity, PrimaryColumn } from 'typeorm';
import { integerTransformer } from '@/database/columns';

/** The id of the one row of `servability_version`. */
export const SERVABILITY_ROW_ID = 1;

/**
 * One row of two counters that the ad index's periodic probe reads instead of the campaigns
 * table (ServableCampaignsReader.probe): whatever can change which campaigns are servable,
 * or how they are served, adds to one of them in the transaction that makes the change, so
 * a probe reads O(1) whatever the number of campaigns, on every instance alike.
 */
@Entity('servability_version')
export class ServabilityVersion {
  @PrimaryColumn({ type: 'integer' }) id: number;

  /**
   * Changes other than spend: a campaign created or changed (CampaignsService), an
   * advertiser's status changed (AdvertisersService).
   */
  @Column({ name: 'change_count', type: 'bigint', transformer: integerTransformer })
  changeCount: number;

  /**
   * Campaigns that ran out of budget by spend, each counted once, when a click batch left it
   * without room for one more click at its bid (CampaignBillingService). Kept apart from
   * `changeCount` because the index drops such a campaign on notice instead of rebuilding.
   */
  @Column({ name: 'exhaustion_count', type: 'bigint', transformer: integerTransformer })
  exhaustionCount: number;
}
