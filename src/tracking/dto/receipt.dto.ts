import { ApiProperty } from '@nestjs/swagger';
import { ExplanationDto } from '@/tracking/explanation/explanation.dto';

/** An ad's receipt looked up by an operator: the impression and why it was shown. */
export class ReceiptDto {
  @ApiProperty({
    description: 'The receipt looked up, as the ad carried it.',
    example: '019a8a3e-5b1c-7cc1-9d0e-3f2a1b4c5d6e.Xp2c0vQm1LzA',
  })
  receipt: string;

  @ApiProperty({
    format: 'uuid',
    description: 'The impression the receipt names.',
    example: '019a8a3e-5b1c-7cc1-9d0e-3f2a1b4c5d6e',
  })
  impression_id: string;

  @ApiProperty({ format: 'uuid', example: '019a8a3e-0000-7cc1-9d0e-3f2a1b4c5d6e' })
  campaign_id: string;

  @ApiProperty({
    type: String,
    nullable: true,
    description: "The campaign's current name; null if the campaign no longer exists.",
    example: 'GPU Cloud for ML',
  })
  campaign_name: string | null;

  @ApiProperty({
    format: 'uuid',
    description: 'The AI model whose key fetched the ad.',
    example: '019a8a3e-1111-7cc1-9d0e-3f2a1b4c5d6e',
  })
  model_id: string;

  @ApiProperty({
    format: 'uuid',
    description: "The model's publisher.",
    example: '019a8a3e-2222-7cc1-9d0e-3f2a1b4c5d6e',
  })
  publisher_id: string;

  @ApiProperty({
    format: 'date-time',
    description: 'When the ad was served (ISO 8601, UTC).',
    example: '2026-11-21T12:00:00.000Z',
  })
  served_at: string;

  @ApiProperty({ description: 'Served to a test key: never billed.', example: false })
  test: boolean;

  @ApiProperty({
    type: ExplanationDto,
    nullable: true,
    description:
      'Why the ad was shown, exactly as recorded when it was served (the fetch-ads `explanation`); null for ads served before explanations were recorded.',
  })
  explanation: ExplanationDto | null;
}
