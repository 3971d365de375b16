import { ApiProperty } from '@nestjs/swagger';
import { DEVICES, type Device } from '@/campaigns/campaigns/devices';
import { CONTENT_CATEGORY_IDS } from '@/common/content-categories';
import { microsToUnits } from '@/common/money';
import { spentOnDay } from '@/campaigns/billing/campaign-eligibility';
import type { KeywordTranslations } from '@/campaigns/campaigns/keyword-translations';
import { CAMPAIGN_STATUSES, type Campaign, type CampaignStatus } from '../entities/campaign.entity';
import {
  TRANSLATIONS_EFFECT,
  TRANSLATIONS_EXAMPLE,
  TRANSLATIONS_SCHEMA,
} from './keyword-translations.docs';

export class CampaignDto {
  @ApiProperty({ format: 'uuid', example: '019a8a3e-5b1c-7cc1-9d0e-3f2a1b4c5d6e' }) id: string;
  @ApiProperty({ format: 'uuid', example: '019a8a3e-0000-7cc1-9d0e-3f2a1b4c5d6e' })
  advertiser_id: string;
  @ApiProperty({ example: 'Trail boots, autumn' }) name: string;
  @ApiProperty({ example: 'Waterproof hiking boots, 20 % off this week.' }) text: string;
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'https://shop.example/boots.png',
  })
  image_url: string | null;
  @ApiProperty({ example: 'https://shop.example/boots' }) target_url: string;
  @ApiProperty({
    type: String,
    enum: CONTENT_CATEGORY_IDS,
    nullable: true,
    description:
      'Tier-1 category of the IAB Tech Lab Content Taxonomy 3.1 (its id); null: not categorised.',
    example: '596',
  })
  category: string | null;
  @ApiProperty({
    type: [String],
    description: 'Normalised as the matcher reads them (NFKC, lower case, single spaces).',
    example: ['hiking boots', 'trail running'],
  })
  keywords: string[];
  @ApiProperty({
    ...TRANSLATIONS_SCHEMA,
    description: `Phrases per keyword (keys: keywords of the campaign), normalised as keywords are; \`{}\` when none. ${TRANSLATIONS_EFFECT}`,
    example: TRANSLATIONS_EXAMPLE,
  })
  keyword_translations: KeywordTranslations;
  @ApiProperty({ description: 'In currency units.', example: 0.35 }) bid_per_click: number;
  @ApiProperty({ type: Number, nullable: true, description: 'Lifetime cap.', example: 500 })
  budget_total: number | null;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'Cap per UTC day; resets at midnight UTC.',
    example: 50,
  })
  budget_daily: number | null;
  @ApiProperty({ description: 'Spent since creation.', example: 12.6 }) spent: number;
  @ApiProperty({ description: 'Spent on the current UTC day.', example: 2.45 })
  spent_today: number;
  @ApiProperty({
    format: 'date-time',
    type: String,
    nullable: true,
    example: '2026-12-01T00:00:00.000Z',
  })
  starts_at: string | null;
  @ApiProperty({
    format: 'date-time',
    type: String,
    nullable: true,
    example: '2027-01-01T00:00:00.000Z',
  })
  ends_at: string | null;
  @ApiProperty({
    type: [String],
    description: 'ISO 3166-1 alpha-2; empty means every country.',
    example: ['DE', 'AT'],
  })
  countries: string[];
  @ApiProperty({
    enum: DEVICES,
    isArray: true,
    description: 'Empty means every device.',
    example: ['mobile'],
  })
  devices: Device[];
  @ApiProperty({ enum: CAMPAIGN_STATUSES }) status: CampaignStatus;
  @ApiProperty({
    type: String,
    nullable: true,
    description: "The landing URL's click id parameter; null: no click id is added.",
    example: 'adl_click',
  })
  click_id_param: string | null;
  @ApiProperty({
    type: 'integer',
    description: 'How many days after its click a conversion still counts.',
    example: 30,
  })
  attribution_window_days: number;
  @ApiProperty({ format: 'date-time', example: '2026-11-21T12:00:00.000Z' }) created_at: string;
}

export class CampaignPixelDto {
  @ApiProperty({
    description: "The conversion pixel (a 1×1 GIF) for the advertiser's confirmation page.",
    example: 'https://adline.example/api/conversions/pixel.gif?c=…',
  })
  gif_url: string;
  @ApiProperty({
    description:
      'The script that keeps the click id in a first-party cookie and exposes `window.adline.convert(event, options)`.',
    example: 'https://adline.example/api/conversions/pixel.js?c=…',
  })
  script_url: string;
}

/** A campaign as its read answers it: with its conversion pixel's URLs. */
export class CampaignDetailDto extends CampaignDto {
  @ApiProperty({ type: CampaignPixelDto }) pixel: CampaignPixelDto;
}

export class CampaignPageDto {
  @ApiProperty({ type: [CampaignDto] }) items: CampaignDto[];
  @ApiProperty({ type: 'integer', example: 1 }) page: number;
  @ApiProperty({ type: 'integer', example: 50 }) per_page: number;
  @ApiProperty({ type: 'integer', description: 'Campaigns in all pages.', example: 1 })
  total: number;
}

/**
 * The fields a client may see of a campaign, listed one by one (never the entity).
 * `today` is the current UTC day: spend of an earlier day no longer counts as today's.
 */
export function toCampaignDto(campaign: Campaign, today: string): CampaignDto {
  return {
    id: campaign.id,
    advertiser_id: campaign.advertiserId,
    name: campaign.name,
    text: campaign.text,
    image_url: campaign.imageUrl,
    target_url: campaign.targetUrl,
    category: campaign.category,
    keywords: campaign.keywords,
    keyword_translations: campaign.keywordTranslations,
    bid_per_click: microsToUnits(campaign.bidMicros),
    budget_total: nullableUnits(campaign.budgetTotalMicros),
    budget_daily: nullableUnits(campaign.budgetDailyMicros),
    spent: microsToUnits(campaign.spentMicros),
    spent_today: microsToUnits(spentOnDay(campaign, today)),
    starts_at: campaign.startsAt?.toISOString() ?? null,
    ends_at: campaign.endsAt?.toISOString() ?? null,
    countries: campaign.countries,
    devices: campaign.devices,
    status: campaign.status,
    click_id_param: campaign.clickIdParam,
    attribution_window_days: campaign.attributionWindowDays,
    created_at: campaign.createdAt.toISOString(),
  };
}

const nullableUnits = (micros: number | null): number | null =>
  micros === null ? null : microsToUnits(micros);
