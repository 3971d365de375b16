import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { DayRangeQueryDto } from './day-range-query.dto';

export const REPORT_FORMATS = ['json', 'csv'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export class ReportQueryDto extends DayRangeQueryDto {
  @ApiPropertyOptional({
    enum: REPORT_FORMATS,
    default: 'json',
    description: '`csv` answers `text/csv` (one row per line, a header first, a total last).',
  })
  @IsOptional()
  @IsIn(REPORT_FORMATS)
  format?: ReportFormat;
}

export class ReportFiguresDto {
  @ApiProperty({ type: 'integer', example: 1200 }) impressions: number;
  @ApiProperty({ type: 'integer', description: 'Valid (billed) clicks.', example: 30 })
  clicks: number;
  @ApiProperty({
    type: 'integer',
    description:
      'Clicks recorded but not billed: invalid (a bot, a duplicate, too fast, …) or over budget. A follow of a forged link (bad_signature, unknown_impression) names no real publisher or model: it counts in the report of its campaign only, never per publisher or model.',
    example: 4,
  })
  invalid_clicks: number;
  @ApiProperty({
    description: 'clicks ÷ impressions, 6 decimals; 0 without impressions.',
    example: 0.025,
  })
  ctr: number;
  @ApiProperty({ description: 'What the billed clicks cost, in currency units.', example: 10.5 })
  spend: number;
  @ApiProperty({
    description:
      'Share of the clicks that were not billed: invalid_clicks ÷ (clicks + invalid_clicks), 6 decimals; 0 without clicks.',
    example: 0.117647,
  })
  invalid_click_rate: number;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'integer' },
    description:
      'invalid_clicks by reason (an invalid reason such as `bot`, `duplicate`, `too_fast` or, in campaign reports, `bad_signature`; `over_budget`; `unrecorded` for clicks counted before reasons were kept). Only reasons with clicks are listed; they add up to invalid_clicks.',
    example: { duplicate: 1, bot: 2, over_budget: 1 },
  })
  unbilled_by_reason: Record<string, number>;
  @ApiProperty({
    type: 'integer',
    description:
      'Impressions whose ad was seen on screen (its `view_url` called in time), on the day the ad was served; test keys’ views are left out.',
    example: 900,
  })
  viewed_impressions: number;
  @ApiProperty({
    description: 'viewed_impressions ÷ impressions, 6 decimals; 0 without impressions.',
    example: 0.75,
  })
  view_rate: number;
  @ApiProperty({
    type: 'integer',
    description:
      'Accepted conversions, counted on the UTC day of their click (a conversion for last week’s click counts on that day): what the day’s clicks brought.',
    example: 3,
  })
  conversions: number;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'integer' },
    description: 'conversions by event, by name; only events with conversions are listed.',
    example: { purchase: 2, signup: 1 },
  })
  conversions_by_event: Record<string, number>;
  @ApiProperty({
    description: 'conversions ÷ clicks (billed), 6 decimals; 0 without clicks.',
    example: 0.1,
  })
  conversion_rate: number;
  @ApiProperty({
    description:
      'What the conversions were worth, in USD units: conversions in other currencies count in `conversions` but not here.',
    example: 149.7,
  })
  conversion_value: number;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'spend ÷ conversions, in currency units; null without conversions.',
    example: 3.5,
  })
  cost_per_conversion: number | null;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'Return on ad spend: conversion_value ÷ spend, 6 decimals; null without spend.',
    example: 14.257143,
  })
  roas: number | null;
  @ApiProperty({
    type: 'integer',
    description:
      'Accepted conversions counted on the UTC day they arrived, whatever their click’s day: what came in that day.',
    example: 2,
  })
  conversions_received: number;
}

export class CampaignStatsRowDto extends ReportFiguresDto {
  @ApiProperty({ format: 'date', description: 'UTC day.', example: '2026-11-01' }) date: string;
}

export class CampaignStatsDto {
  @ApiProperty({ format: 'uuid', example: '019a8a3e-5b1c-7cc1-9d0e-3f2a1b4c5d6e' })
  campaign_id: string;
  @ApiProperty({ format: 'date', example: '2026-11-01' }) from: string;
  @ApiProperty({ format: 'date', example: '2026-11-30' }) to: string;
  @ApiProperty({
    type: [CampaignStatsRowDto],
    description: 'One row per UTC day with any activity, oldest first; quiet days are left out.',
  })
  rows: CampaignStatsRowDto[];
  @ApiProperty({ type: ReportFiguresDto }) totals: ReportFiguresDto;
  @ApiProperty({ type: Number, nullable: true, example: 500 }) budget_total: number | null;
  @ApiProperty({ type: Number, nullable: true, example: 50 }) budget_daily: number | null;
  @ApiProperty({ description: 'Spent since creation (all days).', example: 120.5 }) spent: number;
  @ApiProperty({ description: 'Spent on the current UTC day.', example: 12.25 })
  spent_today: number;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'budget_total − spent; null without a total budget.',
    example: 379.5,
  })
  remaining_budget: number | null;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'budget_daily − spent_today; null without a daily budget.',
    example: 37.75,
  })
  remaining_budget_today: number | null;
}

export class PublisherReportTotalsDto extends ReportFiguresDto {
  @ApiProperty({ description: "The publishers' share of the spend.", example: 7.35 })
  publisher_earnings: number;
  @ApiProperty({ description: 'The platform’s share: spend − publisher_earnings.', example: 3.15 })
  platform_revenue: number;
}

export class PublisherReportRowDto extends PublisherReportTotalsDto {
  @ApiProperty({ format: 'uuid', example: '019a8a3e-5b1c-7cc1-9d0e-3f2a1b4c5d6e' })
  publisher_id: string;
  @ApiProperty({ type: String, nullable: true, example: 'Ada Publishing' })
  publisher_name: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'ada@example.com' })
  publisher_email: string | null;
}

export class PublisherReportDto {
  @ApiProperty({ format: 'date', example: '2026-11-01' }) from: string;
  @ApiProperty({ format: 'date', example: '2026-11-30' }) to: string;
  @ApiProperty({
    type: [PublisherReportRowDto],
    description: 'One row per publisher with any activity in the range, by publisher id.',
  })
  rows: PublisherReportRowDto[];
  @ApiProperty({ type: PublisherReportTotalsDto }) totals: PublisherReportTotalsDto;
}

export class ModelReportRowDto extends PublisherReportTotalsDto {
  @ApiProperty({ format: 'uuid', example: '019a8a3e-5b1c-7cc1-9d0e-3f2a1b4c5d6e' })
  publisher_id: string;
  @ApiProperty({ format: 'uuid', example: '019a8a3f-0d2e-7aa0-8c41-5e6f7a8b9c0d' })
  model_id: string;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'null when the model no longer exists.',
    example: 'Travel assistant',
  })
  model_name: string | null;
}

export class ModelReportDto {
  @ApiProperty({ format: 'date', example: '2026-11-01' }) from: string;
  @ApiProperty({ format: 'date', example: '2026-11-30' }) to: string;
  @ApiProperty({
    type: [ModelReportRowDto],
    description:
      'One row per AI model with any activity in the range, by publisher id, then model id.',
  })
  rows: ModelReportRowDto[];
  @ApiProperty({ type: PublisherReportTotalsDto }) totals: PublisherReportTotalsDto;
}
