import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { DISCLOSURE_LABELS } from '@/campaigns/campaigns/disclosure-labels';
import { ExplanationDto } from '@/tracking/explanation/explanation.dto';

export class AdvertisementDto {
  @ApiProperty({ description: 'Name of the ad campaign.', example: 'GPU Cloud for ML' })
  campaign_name: string;

  @ApiProperty({
    description: 'Text content of the ad.',
    example: 'Train models 3x faster on rented GPUs.',
  })
  campaign_text: string;

  @ApiPropertyOptional({
    description: 'Image to display; present only when the campaign has an image.',
    example: 'https://cdn.example.com/gpu-cloud.png',
  })
  campaign_image?: string;

  @ApiProperty({
    description:
      'Ready-to-use Markdown: the ad text in bold, a link (an image link when there is an image) to campaign_link, and the disclosure label with the service name. Append it to the AI reply as it is.',
    example:
      '\n\n**Train models 3x faster on rented GPUs\\.**\n\n[GPU Cloud for ML](http://localhost:3000/api/campaign_click?campaign_id=…)\n\n_Sponsored · Adline_',
  })
  campaign_markdown: string;

  @ApiProperty({
    format: 'uri',
    description: 'Tracking URL to use for any click on the ad.',
    example:
      'http://localhost:3000/api/campaign_click?campaign_id=019a8a3e-5b1c-7cc1-9d0e-3f2a1b4c5d6e&model_id=019a8a3e-1111-7cc1-9d0e-3f2a1b4c5d6e&targetLink=https%3A%2F%2Fexample.com&imp=019a8a3e-2222-7cc1-9d0e-3f2a1b4c5d6e&sig=Xp2c0vQm1LzA',
  })
  campaign_link: string;

  @ApiProperty({
    format: 'uri',
    description:
      'Call it (`POST`, or `GET`; no credentials, any origin) once the ad is on screen: 204, counted at most once, within `VIEW_WINDOW_MINUTES` of the serve (then 410). Your statistics show `viewed_impressions` and `view_rate`.',
    example:
      'http://localhost:3000/api/ad-views/019a8a3e-2222-7cc1-9d0e-3f2a1b4c5d6e.Xp2c0vQm1LzAe8Rk3TnYbA',
  })
  view_url: string;

  @ApiProperty({
    description: "Bid per click of the campaign, in the campaign's currency units.",
    example: 0.35,
  })
  bid_per_click: number;

  @ApiProperty({
    type: Boolean,
    enum: [true],
    description: 'Always `true`: every ad is paid for. Show it as an ad.',
    example: true,
  })
  sponsored: true;

  @ApiProperty({
    enum: [...new Set(Object.values(DISCLOSURE_LABELS))],
    description:
      "The label that marks the ad as one, in the reader's language: from the request's `locale`, else its `Accept-Language` header, else English. `campaign_markdown` always ends with it.",
    example: 'Sponsored',
  })
  disclosure: string;

  @ApiProperty({
    description:
      'A short signed id of this ad (its impression), to quote when someone asks "why am I seeing this?": an operator looks it up with `GET /api/admin/receipts/{receipt}` and sees the same explanation as `explain: true` gives.',
    example: '019a8a3e-5b1c-7cc1-9d0e-3f2a1b4c5d6e.Xp2c0vQm1LzA',
  })
  receipt: string;

  @ApiPropertyOptional({
    type: ExplanationDto,
    description: 'Why this ad was chosen; present only when the request sent `explain: true`.',
  })
  explanation?: ExplanationDto;
}

export class FetchAdsResponseDto {
  @ApiProperty({
    type: [AdvertisementDto],
    description:
      'One advertisement (`max_ads` absent or 1), or up to `max_ads`, each of another advertiser, best first.',
  })
  advertisements: AdvertisementDto[];
}
