import { ApiProperty, ApiPropertyOptional, OmitType, PartialType } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { DEVICES, type Device } from '@/campaigns/campaigns/devices';
import { normaliseKeyword } from '@/common/keywords';
import { CONTENT_CATEGORY_IDS } from '@/common/content-categories';
import { unitsToMicros } from '@/common/money';
import {
  IsCountryCode,
  IsHttpUrl,
  IsInstant,
  IsMoney,
  IsOmittable,
  IsRequired,
  IsText,
} from '@/common/validators';
import type { NewCampaign } from '@/campaigns/campaigns/campaigns.service';
import type { CampaignChanges } from '@/campaigns/audit/campaign-audit';
import {
  type KeywordTranslations,
  MAX_TRANSLATIONS_BYTES,
  MAX_TRANSLATIONS_PER_CAMPAIGN,
  MAX_TRANSLATIONS_PER_KEYWORD,
} from '@/campaigns/campaigns/keyword-translations';
import {
  CAMPAIGN_STATUSES,
  type CampaignStatus,
  DEFAULT_ATTRIBUTION_WINDOW_DAYS,
  DEFAULT_CLICK_ID_PARAM,
} from '../entities/campaign.entity';
import { PageQueryDto } from '@/common/dto/page-query.dto';
import { IsAdCopy } from './ad-copy.validators';
import { IsKeywordTranslations } from './keyword-translations.validators';
import {
  TRANSLATIONS_EFFECT,
  TRANSLATIONS_EXAMPLE,
  TRANSLATIONS_SCHEMA,
} from './keyword-translations.docs';

/**
 * What `name` and `text` refuse (src/campaigns/campaigns/ad-copy-rules.ts), for their
 * descriptions.
 */
const AD_COPY_RULES =
  'Plain text for a reader: refused (400 validation_failed naming the field) when it contains HTML, Markdown links or images, zero-width or bidirectional control characters, instructions aimed at an AI assistant ("ignore previous instructions", "system prompt", "you are now", …, in English, German, French and Spanish) or a disclosure label of any language ("Sponsored", "Anzeige", "Publicité", …) or a denial of one ("not an ad"): the label is added to every ad.';

export const MAX_KEYWORDS = 100;
export const CLICK_ID_PARAM_SHAPE = /^[A-Za-z][A-Za-z0-9_]{0,31}$/;
export const MAX_ATTRIBUTION_WINDOW_DAYS = 90;
export const MAX_KEYWORD_LENGTH = 100;

/** The OpenAPI schema of a translations map: keyword → list of phrases. */
/** A campaign starts `active` or `paused`, never archived. */
type NewCampaignStatus = Exclude<CampaignStatus, 'archived'>;
const NEW_CAMPAIGN_STATUSES = CAMPAIGN_STATUSES.filter(
  (status): status is NewCampaignStatus => status !== 'archived',
);

const unique = (values: unknown[]): unknown[] => [...new Set(values)];

/** Keywords as the matcher reads them, each once; so "AI", " ai" and "ＡＩ" are one keyword. */
const normaliseKeywords = ({ value }: { value: unknown }): unknown =>
  Array.isArray(value)
    ? unique(value.map((k: unknown) => (typeof k === 'string' ? normaliseKeyword(k) : k)))
    : value;

const upperCaseCodes = ({ value }: { value: unknown }): unknown =>
  Array.isArray(value)
    ? unique(value.map((c: unknown) => (typeof c === 'string' ? c.trim().toUpperCase() : c)))
    : value;

const distinct = ({ value }: { value: unknown }): unknown =>
  Array.isArray(value) ? unique(value) : value;

export class CreateCampaignDto {
  @ApiProperty({ description: 'The advertiser who pays for the campaign.' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(36)
  @IsRequired()
  advertiser_id: string;

  @ApiProperty({
    description: `The ad's link text. ${AD_COPY_RULES}`,
    example: 'Trail boots, autumn',
    minLength: 1,
    maxLength: 200,
  })
  @IsAdCopy()
  @IsText({ min: 1, max: 200 })
  @IsRequired()
  name: string;

  @ApiProperty({
    description: `The ad's text, shown in bold. ${AD_COPY_RULES}`,
    example: 'Waterproof hiking boots, 20 % off this week.',
    minLength: 1,
    maxLength: 1000,
  })
  @IsAdCopy()
  @IsText({ min: 1, max: 1000 })
  @IsRequired()
  text: string;

  @ApiPropertyOptional({
    type: String,
    description: 'An http(s) image URL.',
    example: 'https://shop.example/boots.png',
    maxLength: 2048,
    nullable: true,
  })
  @IsOptional()
  @IsHttpUrl()
  image_url?: string | null;

  @ApiProperty({
    description: 'Where a click leads: an http(s) URL.',
    example: 'https://shop.example/boots',
    maxLength: 2048,
  })
  @IsHttpUrl()
  @IsRequired()
  target_url: string;

  @ApiPropertyOptional({
    type: String,
    enum: CONTENT_CATEGORY_IDS,
    nullable: true,
    description:
      'What the campaign is about: the id of a tier-1 category of the IAB Tech Lab Content Taxonomy 3.1 (docs/api.md lists them). Publishers can block categories per model; null or absent: not categorised, blocked by no category.',
    example: '596',
  })
  @IsOptional()
  @IsIn(CONTENT_CATEGORY_IDS, {
    message: '$property must be the id of a tier-1 IAB content category',
  })
  category?: string | null;

  @ApiProperty({
    type: [String],
    minItems: 1,
    maxItems: MAX_KEYWORDS,
    description:
      'Normalised as the matcher reads them (NFKC, lower case, single spaces); duplicates are removed.',
    example: ['hiking boots', 'trail running'],
  })
  @Transform(normaliseKeywords)
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_KEYWORDS)
  @IsString({ each: true })
  @IsNotEmpty({ each: true, message: 'each value in $property must not be empty' })
  @MaxLength(MAX_KEYWORD_LENGTH, { each: true })
  @IsRequired()
  keywords: string[];

  @ApiPropertyOptional({
    ...TRANSLATIONS_SCHEMA,
    description: `Phrases in other languages (or other wordings) for some of the campaign's keywords, so that a conversation in another language reaches the keyword. ${TRANSLATIONS_EFFECT} Keys are keywords of this campaign; each takes up to ${MAX_TRANSLATIONS_PER_KEYWORD} phrases, at most ${MAX_TRANSLATIONS_PER_CAMPAIGN} in all, each 1–${MAX_KEYWORD_LENGTH} characters, and the whole map at most ${MAX_TRANSLATIONS_BYTES / 1024} KiB as UTF-8 JSON. Keys and phrases are normalised as keywords are; duplicates and a phrase equal to its keyword are dropped. Refused (400 validation_failed naming keyword_translations): a key that is not one of the campaign's keywords, a value that is not a list of strings, an empty or too long phrase, too many phrases, too large a map. Absent on create: none. On PATCH it replaces the whole map (\`{}\` clears it); a PATCH that changes \`keywords\` without it keeps the translations of the keywords that remain.`,
    example: TRANSLATIONS_EXAMPLE,
  })
  @IsKeywordTranslations(MAX_KEYWORD_LENGTH)
  @IsOmittable()
  keyword_translations?: KeywordTranslations;

  @ApiProperty({
    description: 'Bid per click in currency units: greater than 0, at most 6 decimals.',
    example: 0.35,
  })
  @IsMoney({ positive: true })
  @IsRequired()
  bid_per_click: number;

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    description: 'Lifetime cap in currency units, at least `bid_per_click`; null: no cap.',
    example: 500,
  })
  @IsOptional()
  @IsMoney({ positive: true })
  budget_total?: number | null;

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    description:
      'Cap per UTC day in currency units, at least `bid_per_click`; resets at midnight UTC. null: no cap.',
    example: 50,
  })
  @IsOptional()
  @IsMoney({ positive: true })
  budget_daily?: number | null;

  @ApiPropertyOptional({
    format: 'date-time',
    type: String,
    nullable: true,
    description: 'Served from this instant on (ISO 8601 with a zone).',
    example: '2026-12-01T00:00:00Z',
  })
  @IsOptional()
  @IsInstant()
  starts_at?: string | null;

  @ApiPropertyOptional({
    format: 'date-time',
    type: String,
    nullable: true,
    description: 'Served until this instant, which must be later than `starts_at`.',
    example: '2027-01-01T00:00:00Z',
  })
  @IsOptional()
  @IsInstant()
  ends_at?: string | null;

  @ApiPropertyOptional({
    type: [String],
    description: 'ISO 3166-1 alpha-2 codes; empty (the default) means every country.',
    example: ['DE', 'AT'],
  })
  @IsOmittable()
  @Transform(upperCaseCodes)
  @IsArray()
  @ArrayMaxSize(250)
  @IsCountryCode({ each: true })
  countries?: string[];

  @ApiPropertyOptional({
    enum: DEVICES,
    isArray: true,
    description: 'Empty (the default) means every device.',
    example: ['mobile', 'tablet'],
  })
  @IsOmittable()
  @Transform(distinct)
  @IsArray()
  @IsIn(DEVICES, { each: true })
  devices?: Device[];

  @ApiPropertyOptional({
    enum: NEW_CAMPAIGN_STATUSES,
    default: 'active',
    description: 'A new campaign is served at once unless it is created `paused`.',
  })
  @IsOmittable()
  @IsIn(NEW_CAMPAIGN_STATUSES)
  status?: NewCampaignStatus;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    default: DEFAULT_CLICK_ID_PARAM,
    pattern: CLICK_ID_PARAM_SHAPE.source,
    description:
      'The query parameter that carries the click id on the landing URL (`target_url?adl_click=…`), for conversions (docs/api.md, Conversions): a letter, then up to 31 letters, digits or `_`. `null` adds no click id.',
    example: 'adl_click',
  })
  @IsOptional()
  @Matches(CLICK_ID_PARAM_SHAPE, {
    message: '$property must be a letter followed by up to 31 letters, digits or _',
  })
  @IsString()
  click_id_param?: string | null;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: MAX_ATTRIBUTION_WINDOW_DAYS,
    default: DEFAULT_ATTRIBUTION_WINDOW_DAYS,
    description: 'How many days after its click a conversion still counts.',
    example: 30,
  })
  @IsOmittable()
  @Max(MAX_ATTRIBUTION_WINDOW_DAYS)
  @Min(1)
  @IsInt()
  attribution_window_days?: number;
}

/**
 * Every field is optional; `null` clears `image_url`, the budgets and the schedule.
 * `status` moves `active ⇄ paused → archived`; an archived campaign cannot change any more.
 */
export class UpdateCampaignDto extends PartialType(
  OmitType(CreateCampaignDto, ['advertiser_id', 'status'] as const),
  { skipNullProperties: false },
) {
  @ApiPropertyOptional({
    enum: CAMPAIGN_STATUSES,
    description: '`paused` stops serving at once, `active` resumes, `archived` is final.',
  })
  @IsOmittable()
  @IsIn(CAMPAIGN_STATUSES)
  status?: CampaignStatus;
}

export class CampaignListQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: CAMPAIGN_STATUSES, description: 'Only campaigns in this status.' })
  @IsOptional()
  @IsIn(CAMPAIGN_STATUSES)
  status?: CampaignStatus;

  @ApiPropertyOptional({ description: 'Only campaigns of this advertiser.' })
  @IsOptional()
  @IsString()
  @MaxLength(36)
  advertiser_id?: string;

  @ApiPropertyOptional({
    description: 'Only campaigns with this keyword (normalised like campaign keywords).',
    example: 'hiking boots',
  })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_KEYWORD_LENGTH)
  keyword?: string;
}

const toMicros = (units: number | null | undefined): number | null | undefined =>
  units === null || units === undefined ? units : unitsToMicros(units);

const toDate = (instant: string | null | undefined): Date | null | undefined =>
  instant === null || instant === undefined ? instant : new Date(instant);

/** The API's decimal units and ISO strings become micros and instants here, at the edge. */
export function toNewCampaign(dto: CreateCampaignDto): NewCampaign {
  return {
    advertiserId: dto.advertiser_id,
    name: dto.name,
    text: dto.text,
    imageUrl: dto.image_url ?? null,
    targetUrl: dto.target_url,
    category: dto.category ?? null,
    keywords: dto.keywords,
    keywordTranslations: dto.keyword_translations ?? {},
    bidMicros: unitsToMicros(dto.bid_per_click),
    budgetTotalMicros: toMicros(dto.budget_total) ?? null,
    budgetDailyMicros: toMicros(dto.budget_daily) ?? null,
    startsAt: toDate(dto.starts_at) ?? null,
    endsAt: toDate(dto.ends_at) ?? null,
    countries: dto.countries ?? [],
    devices: dto.devices ?? [],
    status: dto.status ?? 'active',
    clickIdParam: dto.click_id_param === undefined ? DEFAULT_CLICK_ID_PARAM : dto.click_id_param,
    attributionWindowDays: dto.attribution_window_days ?? DEFAULT_ATTRIBUTION_WINDOW_DAYS,
  };
}

/** Only the fields sent; an absent field stays as it is. */
export function toCampaignChanges(dto: UpdateCampaignDto): CampaignChanges {
  const changes: CampaignChanges = {
    name: dto.name,
    text: dto.text,
    imageUrl: dto.image_url,
    targetUrl: dto.target_url,
    category: dto.category,
    keywords: dto.keywords,
    keywordTranslations: dto.keyword_translations,
    bidMicros: dto.bid_per_click === undefined ? undefined : unitsToMicros(dto.bid_per_click),
    budgetTotalMicros: toMicros(dto.budget_total),
    budgetDailyMicros: toMicros(dto.budget_daily),
    startsAt: toDate(dto.starts_at),
    endsAt: toDate(dto.ends_at),
    countries: dto.countries,
    devices: dto.devices,
    status: dto.status,
    clickIdParam: dto.click_id_param,
    attributionWindowDays: dto.attribution_window_days,
  };
  return Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
}
