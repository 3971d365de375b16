import { ApiProperty } from '@nestjs/swagger';

export class OverviewFiguresDto {
  @ApiProperty({ format: 'date', description: 'First UTC day.', example: '2026-11-01' })
  from: string;
  @ApiProperty({ format: 'date', description: 'Last UTC day, counted.', example: '2026-11-14' })
  to: string;
  @ApiProperty({ type: 'integer', description: 'Impressions served to live keys.', example: 1200 })
  impressions: number;
  @ApiProperty({ type: 'integer', description: 'Valid (billed) clicks.', example: 30 })
  clicks: number;
  @ApiProperty({ description: 'Your earnings, in currency units.', example: 7.35 })
  earnings: number;
  @ApiProperty({
    description: 'clicks ÷ impressions, 6 decimals; 0 without impressions.',
    example: 0.025,
  })
  ctr: number;
  @ApiProperty({
    description: 'Earnings per 1,000 impressions, 6 decimals; 0 without impressions.',
    example: 6.125,
  })
  rpm: number;
}

export class OverviewPeriodDto extends OverviewFiguresDto {
  @ApiProperty({
    enum: ['today', 'yesterday', 'this_month', 'last_month'],
    description: 'UTC days and months.',
    example: 'this_month',
  })
  period: 'today' | 'yesterday' | 'this_month' | 'last_month';
  @ApiProperty({
    type: OverviewFiguresDto,
    description:
      'The period before: for today yesterday, for yesterday the day before, for this month last month up to the same day of the month, for last month the month before.',
  })
  previous: OverviewFiguresDto;
  @ApiProperty({
    type: Number,
    nullable: true,
    description:
      '(earnings − previous earnings) ÷ previous earnings, 6 decimals (0.25 = 25 % more); null when the period before earned nothing.',
    example: 0.25,
  })
  earnings_change: number | null;
}

export class StatsOverviewDto {
  @ApiProperty({ example: 'USD', description: 'The currency of every amount.' })
  currency: string;
  @ApiProperty({
    type: [OverviewPeriodDto],
    description: 'Today, yesterday, this month and last month, in that order.',
  })
  periods: OverviewPeriodDto[];
}
