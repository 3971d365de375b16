import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateBy,
  ValidateNested,
} from 'class-validator';
import { CONTENT_CATEGORY_IDS } from '@/common/content-categories';
import { normaliseKeyword } from '@/common/keywords';
import { hasAtMostSixDecimals } from '@/common/money';
import { IsOmittable, IsRequired } from '@/common/validators';
import {
  MAX_BLOCKED_ADVERTISERS,
  MAX_BLOCKED_KEYWORD_LENGTH,
  MAX_BLOCKED_KEYWORDS,
  MAX_FREQUENCY_CAP_ADS,
  MAX_FREQUENCY_CAP_MINUTES,
  type ModelControls,
} from '../model-controls';

const distinct = (values: unknown[]): unknown[] => [...new Set(values)];

const distinctTrimmed = ({ value }: { value: unknown }): unknown =>
  Array.isArray(value)
    ? distinct(value.map((v: unknown) => (typeof v === 'string' ? v.trim() : v)))
    : value;

/** Blocked keywords as the matcher reads campaign keywords, each once. */
const distinctNormalised = ({ value }: { value: unknown }): unknown =>
  Array.isArray(value)
    ? distinct(value.map((v: unknown) => (typeof v === 'string' ? normaliseKeyword(v) : v)))
    : value;

/**
 * Control characters and lone surrogates, which JSON escapes to six bytes each: refused, so
 * that the longest list the API takes stays within its 64 KiB column on MySQL.
 */
const NO_CONTROL_CHARACTERS = /^[^\p{Cc}\p{Cs}]*$/u;

export class FrequencyCapDto {
  @ApiProperty({
    type: 'integer',
    description: `At most this many ads (1–${MAX_FREQUENCY_CAP_ADS}) per \`session_id\`…`,
    minimum: 1,
    maximum: MAX_FREQUENCY_CAP_ADS,
    example: 3,
  })
  @Max(MAX_FREQUENCY_CAP_ADS)
  @Min(1)
  @IsInt()
  @IsRequired()
  max_ads: number;

  @ApiProperty({
    type: 'integer',
    description: `…in this many minutes from the session's first ad (1–${MAX_FREQUENCY_CAP_MINUTES}, a day).`,
    minimum: 1,
    maximum: MAX_FREQUENCY_CAP_MINUTES,
    example: 60,
  })
  @Max(MAX_FREQUENCY_CAP_MINUTES)
  @Min(1)
  @IsInt()
  @IsRequired()
  per_minutes: number;
}

const CATEGORIES_DESCRIPTION =
  'Ids of tier-1 categories of the IAB Tech Lab Content Taxonomy 3.1 (docs/api.md lists them): campaigns of these categories are not served to this model. Uncategorised campaigns are blocked by none.';
const ADVERTISERS_DESCRIPTION =
  'Advertiser ids: their campaigns are not served to this model. Stored as given (an id that names no advertiser blocks nothing).';
const KEYWORDS_DESCRIPTION =
  'Campaigns targeting one of these keywords are not served to this model. Normalised as campaign keywords are (NFKC, lower case, single spaces).';
const FLOOR_DESCRIPTION =
  'The least relevance an ad may have, as a fraction (0–1) of the best possible: 0 serves every match.';
const CAP_DESCRIPTION =
  "At most `max_ads` ads per `session_id` (sent with fetch-ads) in `per_minutes` minutes from the session's first ad (a fixed window); null: no cap.";

/**
 * `PUT /api/models/{id}/controls`: the whole set, replacing the one stored. A field left
 * out takes its default (nothing blocked, floor 0, no cap).
 */
export class SetModelControlsDto {
  @ApiPropertyOptional({
    type: String,
    enum: CONTENT_CATEGORY_IDS,
    isArray: true,
    default: [],
    description: `${CATEGORIES_DESCRIPTION} Duplicates are removed.`,
    example: ['386', 'v9i3On'],
  })
  @IsOmittable()
  @Transform(({ value }: { value: unknown }) => (Array.isArray(value) ? distinct(value) : value))
  @IsIn(CONTENT_CATEGORY_IDS, {
    each: true,
    message: 'each value in $property must be the id of a tier-1 IAB content category',
  })
  @IsString({ each: true })
  @ArrayMaxSize(CONTENT_CATEGORY_IDS.length)
  @IsArray()
  blocked_categories?: string[];

  @ApiPropertyOptional({
    type: [String],
    default: [],
    maxItems: MAX_BLOCKED_ADVERTISERS,
    description: `${ADVERTISERS_DESCRIPTION} Up to ${MAX_BLOCKED_ADVERTISERS}, each 1–36 characters; duplicates are removed.`,
    example: ['019a8a3e-0000-7cc1-9d0e-3f2a1b4c5d6e'],
  })
  @IsOmittable()
  @Transform(distinctTrimmed)
  @MaxLength(36, { each: true })
  @IsNotEmpty({ each: true, message: 'each value in $property must not be empty' })
  @IsString({ each: true })
  @ArrayMaxSize(MAX_BLOCKED_ADVERTISERS)
  @IsArray()
  blocked_advertisers?: string[];

  @ApiPropertyOptional({
    type: [String],
    default: [],
    maxItems: MAX_BLOCKED_KEYWORDS,
    description: `${KEYWORDS_DESCRIPTION} Up to ${MAX_BLOCKED_KEYWORDS}, each 1–${MAX_BLOCKED_KEYWORD_LENGTH} characters without control characters; duplicates are removed.`,
    example: ['casino', 'payday loans'],
  })
  @IsOmittable()
  @Transform(distinctNormalised)
  @Matches(NO_CONTROL_CHARACTERS, {
    each: true,
    message: 'each value in $property must not contain control characters',
  })
  @MaxLength(MAX_BLOCKED_KEYWORD_LENGTH, { each: true })
  @IsNotEmpty({ each: true, message: 'each value in $property must not be empty' })
  @IsString({ each: true })
  @ArrayMaxSize(MAX_BLOCKED_KEYWORDS)
  @IsArray()
  blocked_keywords?: string[];

  @ApiPropertyOptional({
    description: `${FLOOR_DESCRIPTION} At most 6 decimals.`,
    minimum: 0,
    maximum: 1,
    default: 0,
    example: 0.5,
  })
  @IsOmittable()
  @ValidateBy({
    name: 'hasAtMostSixDecimals',
    validator: {
      validate: (value: unknown) => typeof value === 'number' && hasAtMostSixDecimals(value),
      defaultMessage: () => '$property must have at most 6 decimals',
    },
  })
  @Max(1)
  @Min(0)
  @IsNumber({ allowNaN: false, allowInfinity: false })
  relevance_floor?: number;

  @ApiPropertyOptional({
    type: FrequencyCapDto,
    nullable: true,
    description: CAP_DESCRIPTION,
  })
  @IsOptional()
  @ValidateNested()
  @Type(() => FrequencyCapDto)
  @IsObject()
  frequency_cap?: FrequencyCapDto | null;
}

/** A model's controls as the API shows them. */
export class ModelControlsDto {
  @ApiProperty({
    type: String,
    enum: CONTENT_CATEGORY_IDS,
    isArray: true,
    description: CATEGORIES_DESCRIPTION,
    example: ['386'],
  })
  blocked_categories: string[];

  @ApiProperty({ type: [String], description: ADVERTISERS_DESCRIPTION, example: [] })
  blocked_advertisers: string[];

  @ApiProperty({ type: [String], description: KEYWORDS_DESCRIPTION, example: ['casino'] })
  blocked_keywords: string[];

  @ApiProperty({ description: FLOOR_DESCRIPTION, minimum: 0, maximum: 1, example: 0 })
  relevance_floor: number;

  @ApiProperty({
    type: FrequencyCapDto,
    nullable: true,
    description: CAP_DESCRIPTION,
    example: { max_ads: 3, per_minutes: 60 },
  })
  frequency_cap: FrequencyCapDto | null;
}

/** The body's controls in the service's terms; a field left out takes its default. */
export function toModelControls(dto: SetModelControlsDto): ModelControls {
  return {
    blockedCategories: dto.blocked_categories ?? [],
    blockedAdvertisers: dto.blocked_advertisers ?? [],
    blockedKeywords: dto.blocked_keywords ?? [],
    relevanceFloor: dto.relevance_floor ?? 0,
    frequencyCap: dto.frequency_cap
      ? { maxAds: dto.frequency_cap.max_ads, perMinutes: dto.frequency_cap.per_minutes }
      : null,
  };
}

export function toModelControlsDto(controls: ModelControls): ModelControlsDto {
  return {
    blocked_categories: controls.blockedCategories,
    blocked_advertisers: controls.blockedAdvertisers,
    blocked_keywords: controls.blockedKeywords,
    relevance_floor: controls.relevanceFloor,
    frequency_cap: controls.frequencyCap && {
      max_ads: controls.frequencyCap.maxAds,
      per_minutes: controls.frequencyCap.perMinutes,
    },
  };
}
