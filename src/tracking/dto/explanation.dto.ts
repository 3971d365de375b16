import { ApiProperty } from '@nestjs/swagger';
import { KEYWORD_SOURCES, type KeywordSource } from '@/campaign-index/explain';
import { DEVICES, type Device } from '@/campaigns/devices';

export class MatchedKeywordDto {
  @ApiProperty({ description: "One of the campaign's keywords, normalised.", example: 'gpu' })
  keyword: string;

  @ApiProperty({
    enum: KEYWORD_SOURCES,
    description:
      '`context_keywords`: the request sent it (full weight). `conversation`: not sent, but found as whole words in the last 4,000 characters of the conversation (half weight; of all such keywords, only the three rarest add relevance).',
    example: 'context_keywords',
  })
  source: KeywordSource;
}

export class TargetingExplanationDto {
  @ApiProperty({
    type: String,
    nullable: true,
    description:
      "The user's country as read from `user_location` (ISO 3166-1 alpha-2); null when it named none.",
    example: 'DE',
  })
  country: string | null;

  @ApiProperty({
    enum: DEVICES,
    nullable: true,
    description:
      "The user's device class as read from `user_device_info`; null when it named none.",
    example: 'desktop',
  })
  device: Device | null;

  @ApiProperty({
    type: [String],
    description:
      'The countries the campaign targeted when the ad was served; empty: every country.',
    example: ['DE', 'AT'],
  })
  campaign_countries: string[];

  @ApiProperty({
    enum: DEVICES,
    isArray: true,
    description: 'The devices the campaign targeted when the ad was served; empty: every device.',
    example: [],
  })
  campaign_devices: Device[];
}

/**
 * Why an ad was shown, as recorded with its impression: the same for the fetch-ads answer
 * and for every later look-up of its receipt, whatever the campaign has become since.
 */
export class ExplanationDto {
  @ApiProperty({
    type: [MatchedKeywordDto],
    description:
      "The campaign's keywords the request met: those sent in `context_keywords` first, then those found only in the conversation.",
    example: [
      { keyword: 'gpu', source: 'context_keywords' },
      { keyword: 'machine learning', source: 'conversation' },
    ],
  })
  matched_keywords: MatchedKeywordDto[];

  @ApiProperty({
    type: TargetingExplanationDto,
    description:
      "The targeting the ad met: the user's country and device as read from the request, and what the campaign targets.",
  })
  targeting: TargetingExplanationDto;

  @ApiProperty({
    description:
      "Relevance from 0 to 1 (6 decimals): the share of the campaign's keyword weight the request met. Rarer keywords weigh more; conversation keywords count at half weight.",
    example: 0.75,
  })
  relevance: number;

  @ApiProperty({
    description: "The campaign's bid per click when the ad was served, in currency units.",
    example: 0.35,
  })
  bid: number;

  @ApiProperty({
    description:
      'relevance × bid, in currency units (6 decimals): the campaign with the highest score is shown.',
    example: 0.2625,
  })
  score: number;
}
