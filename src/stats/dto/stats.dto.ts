import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { NoFillsDto } from './no-fills.dto';
import { ReportQueryDto } from '@/reports/dto/reports.dto';

/** The day range, `format` (json or csv) and one model, if given. */
export class ModelRangeQueryDto extends ReportQueryDto {
  @ApiPropertyOptional({ description: 'Only this one of your AI models.' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  model_id?: string;
}

export const STATS_GROUPS = ['day', 'model', 'key', 'campaign'] as const;
export type StatsGroup = (typeof STATS_GROUPS)[number];

export class StatsQueryDto extends ModelRangeQueryDto {
  @ApiPropertyOptional({
    enum: STATS_GROUPS,
    default: 'day',
    description:
      'What a row is: `day` (a UTC day and model), `model`, `key` (an API key; from the raw events, so only the last `RETENTION_DAYS` days) or `campaign` (the ads shown, most earnings first).',
  })
  @IsOptional()
  @IsIn(STATS_GROUPS)
  group_by?: StatsGroup;
}

/** The billing figures every row has, whatever it is grouped by. */
export class BillingFiguresDto {
  @ApiProperty({ type: 'integer', description: 'Impressions served to live keys.', example: 1200 })
  impressions: number;
  @ApiProperty({ type: 'integer', description: 'Valid (billed) clicks.', example: 30 })
  clicks: number;
  @ApiProperty({
    description: 'clicks ÷ impressions, 6 decimals; 0 without impressions.',
    example: 0.025,
  })
  ctr: number;
  @ApiProperty({
    description:
      'Earnings per 1,000 impressions (RPM) in currency units, 6 decimals; 0 without impressions.',
    example: 6.125,
  })
  rpm: number;
  @ApiProperty({
    description: 'Your share of the billed clicks, in currency units.',
    example: 7.35,
  })
  earnings: number;
  @ApiProperty({
    type: 'integer',
    description:
      'Impressions served to test keys (`adl_test_…`): never billed, not in `impressions` or `ctr`.',
    example: 40,
  })
  test_impressions: number;
  @ApiProperty({
    type: 'integer',
    description:
      'Follows of test keys’ ads: redirected as usual, never billed, not in `clicks` or `earnings`.',
    example: 3,
  })
  test_clicks: number;
  @ApiProperty({
    type: 'integer',
    description:
      'Impressions served to live keys whose ad was seen: its `view_url` called within `VIEW_WINDOW_MINUTES`; counted on the day the ad was served. Per key, from the raw impressions.',
    example: 900,
  })
  viewed_impressions: number;
  @ApiProperty({
    description: 'viewed_impressions ÷ impressions, 6 decimals; 0 without impressions.',
    example: 0.75,
  })
  view_rate: number;
}

export class StatsTotalsDto extends BillingFiguresDto {
  @ApiProperty({
    type: 'integer',
    description:
      'fetch-ads requests made with your keys: `fills` plus every count in `no_fills`. Written every few seconds, so the last few may be missing. Not counted: requests refused before an ad is looked for or that fail (400, a 404 other than `no_matching_ad`, 429, 503), and requests from before the service counted them.',
    example: 1500,
  })
  requests: number;
  @ApiProperty({
    type: 'integer',
    description: 'Requests answered with an ad for a live key (the impressions, as counted here).',
    example: 1200,
  })
  fills: number;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'fills ÷ requests, 6 decimals; null without requests.',
    example: 0.8,
  })
  fill_rate: number | null;
  @ApiProperty({
    type: NoFillsDto,
    description: 'Requests without a (billable) ad, by reason; only reasons with requests appear.',
    example: { no_match: 250, sensitive_topic: 10, test: 40 },
  })
  no_fills: NoFillsDto;
}

export class StatsRowDto extends StatsTotalsDto {
  @ApiProperty({ format: 'date', description: 'UTC day.', example: '2026-11-01' }) date: string;
  @ApiProperty({ format: 'uuid', example: '019a8a3e-5b1c-7cc1-9d0e-3f2a1b4c5d6e' })
  model_id: string;
}

/** A row of `group_by=model`. */
export class StatsModelRowDto extends StatsTotalsDto {
  @ApiProperty({ format: 'uuid', example: '019a8a3e-5b1c-7cc1-9d0e-3f2a1b4c5d6e' })
  model_id: string;
}

/** A row of `group_by=key`: figures from the raw events, kept `RETENTION_DAYS` days. */
export class StatsKeyRowDto extends BillingFiguresDto {
  @ApiProperty({
    type: String,
    nullable: true,
    format: 'uuid',
    description: 'The API key that fetched the ads; null for ads recorded before keys were.',
    example: '019a8a40-1c2d-7e3f-8a4b-5c6d7e8f9a0b',
  })
  key_id: string | null;
  @ApiProperty({ format: 'uuid', example: '019a8a3e-5b1c-7cc1-9d0e-3f2a1b4c5d6e' })
  model_id: string;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The key’s prefix, as the key list shows it.',
    example: 'adl_live_3f9a',
  })
  key_prefix: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'production' })
  key_label: string | null;
}

/** A row of `group_by=campaign`. */
export class StatsCampaignRowDto extends BillingFiguresDto {
  @ApiProperty({ format: 'uuid', example: '019a8a3f-0d2e-7aa0-8c41-5e6f7a8b9c0d' })
  campaign_id: string;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The campaign’s name; null if it no longer exists.',
    example: 'Spanish in 30 days',
  })
  campaign_name: string | null;
}

export type StatsRow = StatsRowDto | StatsModelRowDto | StatsKeyRowDto | StatsCampaignRowDto;

@ApiExtraModels(StatsRowDto, StatsModelRowDto, StatsKeyRowDto, StatsCampaignRowDto)
export class StatsDto {
  @ApiProperty({ format: 'date', example: '2026-11-01' }) from: string;
  @ApiProperty({ format: 'date', example: '2026-11-30' }) to: string;
  @ApiProperty({
    type: 'array',
    items: {
      anyOf: [StatsRowDto, StatsModelRowDto, StatsKeyRowDto, StatsCampaignRowDto].map((dto) => ({
        $ref: getSchemaPath(dto),
      })),
    },
    description:
      'As `group_by` says. `day` (StatsRowDto): one row per day and model with any activity (test traffic included), by day then model; quiet days are left out. `model` (StatsModelRowDto): one per model, by model id. `key` (StatsKeyRowDto): one per API key, by model then key, counted from the raw impressions and clicks, which are kept `RETENTION_DAYS` days. `campaign` (StatsCampaignRowDto): one per campaign whose ads you showed, most earnings first.',
  })
  rows: StatsRow[];
  @ApiProperty({
    type: StatsTotalsDto,
    description: 'The whole range, from the daily roll-ups, whatever `group_by` is.',
  })
  totals: StatsTotalsDto;
}
