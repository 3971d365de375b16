import { ApiProperty } from '@nestjs/swagger';
import { UNBILLED_REASONS } from '../unbilled-reasons';

export class UnbilledClicksRowDto {
  @ApiProperty({ format: 'date', description: 'UTC day.', example: '2026-11-01' }) date: string;
  @ApiProperty({ format: 'uuid', example: '019a8a3e-5b1c-7cc1-9d0e-3f2a1b4c5d6e' })
  model_id: string;
  @ApiProperty({ enum: UNBILLED_REASONS, example: 'bot' }) reason: string;
  @ApiProperty({ type: 'integer', example: 3 }) clicks: number;
}

export class UnbilledClicksTotalDto {
  @ApiProperty({ enum: UNBILLED_REASONS, example: 'bot' }) reason: string;
  @ApiProperty({ type: 'integer', example: 12 }) clicks: number;
}

export class UnbilledReasonDto {
  @ApiProperty({ enum: UNBILLED_REASONS, example: 'bot' }) reason: string;
  @ApiProperty({ example: 'Not a person’s browser' }) title: string;
  @ApiProperty({
    example:
      'Following your own ad’s link with curl or a script is not counted: only a person in a browser is.',
  })
  meaning: string;
  @ApiProperty({
    example: 'Do not open or test ad links with scripts or tools.',
  })
  what_to_do: string;
}

export class UnbilledClicksDto {
  @ApiProperty({ format: 'date', example: '2026-11-01' }) from: string;
  @ApiProperty({ format: 'date', example: '2026-11-30' }) to: string;
  @ApiProperty({
    type: [UnbilledClicksRowDto],
    description:
      'Clicks on your ads that were recorded but not paid, per UTC day, model and reason; by day, model, then reason in the order of `reasons`.',
  })
  rows: UnbilledClicksRowDto[];
  @ApiProperty({
    type: [UnbilledClicksTotalDto],
    description: 'The range’s unbilled clicks per reason, only reasons with clicks.',
  })
  totals: UnbilledClicksTotalDto[];
  @ApiProperty({
    type: [UnbilledReasonDto],
    description: 'What every reason means and what to do about it, whether it has clicks or not.',
  })
  reasons: UnbilledReasonDto[];
}
