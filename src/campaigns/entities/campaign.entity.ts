import { Column, Entity, Index, JoinColumn, ManyToOne, type ValueTransformer } from 'typeorm';
import type { Device } from '@/campaigns/campaigns/devices';
import { CONTENT_CATEGORY_ID_LENGTH } from '@/common/content-categories';
import { IdColumn, MicrosColumn, RefColumn, TimestampColumn } from '@/database/columns';
import type { KeywordTranslations } from '@/campaigns/campaigns/keyword-translations';
import { Advertiser } from './advertiser.entity';

/** `active ⇄ paused → archived`; the one list the API validates and documents. */
export const CAMPAIGN_STATUSES = ['active', 'paused', 'archived'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/** Conversions: the landing URL's click id parameter and the attribution window, by default. */
export const DEFAULT_CLICK_ID_PARAM = 'adl_click';
export const DEFAULT_ATTRIBUTION_WINDOW_DAYS = 30;

/**
 * A campaign without translations stores NULL, as every campaign older than the column
 * does; the app always sees an object, `{}` for none.
 */
const translationsTransformer: ValueTransformer = {
  to: (value: KeywordTranslations | null | undefined) => {
    if (value === undefined) return undefined;
    return value !== null && Object.keys(value).length > 0 ? value : null;
  },
  from: (value: KeywordTranslations | null) => value ?? {},
};

@Entity('campaigns')
@Index('idx_campaigns_status', ['status'])
@Index('idx_campaigns_advertiser', ['advertiserId'])
export class Campaign {
  @IdColumn() id: string;

  @RefColumn('advertiser_id') advertiserId: string;

  @ManyToOne(() => Advertiser, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'advertiser_id', foreignKeyConstraintName: 'fk_campaigns_advertiser' })
  advertiser?: Advertiser;

  @Column({ type: 'varchar', length: 200 }) name: string;
  @Column({ type: 'varchar', length: 1000 }) text: string;
  @Column({ name: 'image_url', type: 'varchar', length: 2048, nullable: true })
  imageUrl: string | null;
  @Column({ name: 'target_url', type: 'varchar', length: 2048 }) targetUrl: string;
  /** An IAB Content Taxonomy tier-1 id (`CONTENT_CATEGORIES`), or null: not categorised. */
  @Column({ type: 'varchar', length: CONTENT_CATEGORY_ID_LENGTH, nullable: true })
  category: string | null;

  /** Normalised keywords (see `normaliseKeyword`). */
  @Column({ type: 'simple-json' }) keywords: string[];
  /** Phrases per keyword, all normalised; keys are keywords of this campaign. */
  @Column({
    name: 'keyword_translations',
    type: 'simple-json',
    nullable: true,
    transformer: translationsTransformer,
  })
  keywordTranslations: KeywordTranslations;
  /** ISO 3166-1 alpha-2 codes; empty = every country. */
  @Column({ type: 'simple-json' }) countries: string[];
  /** Empty = every device. */
  @Column({ type: 'simple-json' }) devices: Device[];

  @MicrosColumn('bid_micros') bidMicros: number;
  @MicrosColumn('budget_total_micros', { nullable: true }) budgetTotalMicros: number | null;
  @MicrosColumn('budget_daily_micros', { nullable: true }) budgetDailyMicros: number | null;
  @MicrosColumn('spent_micros') spentMicros: number;
  /** Spend of the UTC day `spentDay`; a click on a later day starts the count again. */
  @MicrosColumn('spent_today_micros') spentTodayMicros: number;
  @Column({ name: 'spent_day', type: 'varchar', length: 10, nullable: true }) spentDay:
    string | null;

  @TimestampColumn('starts_at', { nullable: true }) startsAt: Date | null;
  @TimestampColumn('ends_at', { nullable: true }) endsAt: Date | null;
  @Column({ type: 'varchar', length: 16 }) status: CampaignStatus;

  /** The landing URL's parameter for the click id; null: no click id is added. */
  @Column({
    name: 'click_id_param',
    type: 'varchar',
    length: 32,
    nullable: true,
    default: 'adl_click',
  })
  clickIdParam: string | null;
  /** How many days after its click a conversion still counts. */
  @Column({ name: 'attribution_window_days', type: 'integer', default: 30 })
  attributionWindowDays: number;

  @TimestampColumn('created_at') createdAt: Date;
  @TimestampColumn('updated_at') updatedAt: Date;
}
