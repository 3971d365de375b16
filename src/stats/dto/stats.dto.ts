import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { NoFillsDto } from './no-fills.dto';
import { ReportQueryDto } from '@/reports/dto/reports.dto';

/** The day range, `format` (json or csv) and one model, if given. */
export class StatsQueryDto extends ReportQueryDto {
  @ApiPropertyOptional({ description: 'Only this one of your AI models.' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  model_id?: string;
}

export class StatsTotalsDto {
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

export class StatsDto {
  @ApiProperty({ format: 'date', example: '2026-11-01' }) from: string;
  @ApiProperty({ format: 'date', example: '2026-11-30' }) to: string;
  @ApiProperty({
    type: [StatsRowDto],
    description:
      'One row per day and model with any activity (test traffic included), by day then model; quiet days are left out.',
  })
  rows: StatsRowDto[];
  @ApiProperty({ type: StatsTotalsDto }) totals: StatsTotalsDto;
}
