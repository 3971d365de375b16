import { ApiProperty, ApiPropertyOptional, PickType } from '@nestjs/swagger';
import { ExplanationDto } from '@/tracking/explanation/explanation.dto';
import { FetchAdsRequestDto } from './fetch-ads-request.dto';

/** What fetch-ads would be sent: the conversation, its keywords, the reader's locale and targeting. */
export class CampaignTryRequestDto extends PickType(FetchAdsRequestDto, [
  'conversation',
  'context_keywords',
  'locale',
  'user_location',
  'user_device_info',
] as const) {}

export const TRY_REASONS = [
  'campaign_paused',
  'campaign_archived',
  'not_servable',
  'sensitive_topic',
  'no_match',
  'no_targeted_match',
  'outranked',
] as const;
export type TryReason = (typeof TRY_REASONS)[number];

export class CampaignTryResultDto {
  @ApiProperty({
    description: 'Whether fetch-ads would serve this campaign for the request now.',
    example: true,
  })
  would_serve: boolean;

  @ApiPropertyOptional({
    enum: TRY_REASONS,
    description:
      'Why not: the campaign is paused or archived; `not_servable`: it is active but outside its schedule, out of budget or its advertiser is inactive; `sensitive_topic`: no ad is shown beside this conversation; `no_match` / `no_targeted_match`: its keywords or targeting do not meet the request; `outranked`: it matches, but another campaign scores higher.',
    example: 'outranked',
  })
  reason?: TryReason;

  @ApiPropertyOptional({
    description: 'Relevance from 0 to 1 of this campaign for the request, when it matches.',
    example: 0.75,
  })
  relevance?: number;

  @ApiPropertyOptional({
    type: ExplanationDto,
    description: 'Why it matches, as fetch-ads explains an ad (`explain: true`), when it matches.',
  })
  explanation?: ExplanationDto;

  @ApiPropertyOptional({
    description: 'With `outranked`: the score (relevance × bid) of the campaign that would win.',
    example: 0.4,
  })
  winning_score?: number;
}
