import { ApiProperty } from '@nestjs/swagger';
import { IsIsoDay, IsRequired } from '@/common/validators';
import { MAX_STATS_DAYS } from '../stats-range';

/** A range of whole UTC days, both ends included: the query of every report. */
export class DayRangeQueryDto {
  @ApiProperty({ format: 'date', description: 'First day (UTC), included.', example: '2026-11-01' })
  @IsIsoDay()
  @IsRequired()
  from: string;

  @ApiProperty({
    format: 'date',
    description: `Last day (UTC), included; at most ${MAX_STATS_DAYS} days after \`from\`, counting both.`,
    example: '2026-11-30',
  })
  @IsIsoDay()
  @IsRequired()
  to: string;
}
