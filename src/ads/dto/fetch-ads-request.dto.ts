import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateBy,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { Type } from 'class-transformer';
import { CONTENT_CATEGORY_IDS } from '@/common/content-categories';
import { IsRequired } from '@/common/validators';
import { ChatMessageDto } from './chat-message.dto';
import { ModerationDto } from './moderation.dto';

/** At most this many ads per request, each of another advertiser. */
export const MAX_ADS_PER_REQUEST = 3;

/** At most this many `excluded_topics`: more than the list has, so a client may send it whole. */
export const MAX_EXCLUDED_TOPICS = 50;

/** A short BCP 47 tag: language, then optionally script and region ("de", "fr-CA", "zh-Hant-TW"). */
export const LANGUAGE_TAG = /^[A-Za-z]{2,3}(-[A-Za-z]{4})?(-([A-Za-z]{2}|[0-9]{3}))?$/;

/** A field is sent when it holds a value: `null` and absent alike are not. */
const isSent = (value: unknown): boolean => value !== undefined && value !== null;

/** Refuses `field` when `other` is sent too (`null` counts as not sent): one conversation, not two. */
function notBoth(field: string, other: string): Parameters<typeof ValidateBy>[0] {
  return {
    name: 'notBoth',
    validator: {
      validate: (_value: unknown, args) =>
        !isSent((args?.object as Record<string, unknown> | undefined)?.[other]),
      defaultMessage: () => `send either ${field} or ${other}, not both`,
    },
  };
}

/** Body of `POST /api/fetch-ads` (docs/design.md, the publisher contract). Unknown fields are ignored. */
export class FetchAdsRequestDto {
  @ApiPropertyOptional({
    description:
      'Recent conversation or query from the user. Send it or `messages`, exactly one of the two. Stored (cut to CONVERSATION_MAX_CHARS) for analytics; its words may add relevance among matching campaigns.',
    example: 'Which laptop is best for machine learning on a budget?',
  })
  @ValidateBy(notBoth('conversation', 'messages'))
  @IsString()
  @Matches(/\S/, { message: 'conversation should not be empty' })
  // Neither sent: reported as a missing `conversation`, the field most clients send.
  @IsRequired()
  @ValidateIf((body: FetchAdsRequestDto) => isSent(body.conversation) || !isSent(body.messages))
  conversation?: string;

  @ApiPropertyOptional({
    type: [ChatMessageDto],
    minItems: 1,
    description:
      'The chat so far, as chat APIs hold it, instead of `conversation` (send exactly one of the two). Read as the conversation, one `role: content` line per message in this order; the same body size limit applies.',
    example: [
      { role: 'system', content: 'You are a helpful assistant.' },
      { role: 'user', content: 'Which laptop is best for machine learning on a budget?' },
    ],
  })
  @ValidateBy(notBoth('messages', 'conversation'))
  @ValidateNested()
  @Type(() => ChatMessageDto)
  @ArrayNotEmpty()
  @IsArray()
  @IsOptional()
  messages?: ChatMessageDto[];

  @ApiProperty({
    description:
      'Comma-separated keywords extracted from the conversation; used to match campaigns.',
    example: 'laptop, machine learning, gpu',
    maxLength: 2000,
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(2000)
  @Matches(/[^,\s]/, { message: 'context_keywords should contain at least one keyword' })
  @IsRequired()
  context_keywords: string;

  @ApiPropertyOptional({
    description: 'Country of the user, alone or after a city: "DE", "Germany", "Berlin, Germany".',
    example: 'Berlin, Germany',
    maxLength: 255,
  })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  user_location?: string;

  @ApiPropertyOptional({
    description: 'Device of the user: a word (mobile, tablet, desktop) or a user-agent string.',
    example:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148',
    maxLength: 512,
  })
  @IsOptional()
  @IsString()
  @MaxLength(512)
  user_device_info?: string;

  @ApiPropertyOptional({
    description:
      "Language of the reader, as a BCP 47 tag (a language, optionally a script and a region): chooses the language of the ad's `disclosure` label. Wins over the `Accept-Language` header; a language without a label gets English.",
    example: 'de',
    maxLength: 12,
    pattern: LANGUAGE_TAG.source,
  })
  @IsOptional()
  @Matches(LANGUAGE_TAG, {
    message: 'locale must be a language tag such as "de", "fr-CA" or "zh-Hant-TW"',
  })
  @IsString()
  locale?: string;

  @ApiPropertyOptional({
    description:
      'When `true`, each ad carries an `explanation`: the keywords it matched and where each came from, the targeting it met, and its relevance, bid and score. Every ad carries a `receipt` either way.',
    example: true,
    default: false,
  })
  @IsOptional()
  @IsBoolean()
  explain?: boolean;

  @ApiPropertyOptional({
    type: String,
    enum: CONTENT_CATEGORY_IDS,
    isArray: true,
    maxItems: MAX_EXCLUDED_TOPICS,
    description:
      "IAB Content Taxonomy 3.1 tier-1 category ids to keep away from this answer, on top of the model's blocked categories: a campaign of one of them is not served (the next best is, else 404 `no_matching_ad` with reason `blocked`). A campaign without a category is never excluded by them.",
    example: ['386', 'v9i3On'],
  })
  @IsOptional()
  @IsIn(CONTENT_CATEGORY_IDS, {
    each: true,
    message: 'each value in $property must be the id of a tier-1 IAB content category',
  })
  @IsString({ each: true })
  @ArrayMaxSize(MAX_EXCLUDED_TOPICS)
  @IsArray()
  excluded_topics?: string[];

  @ApiPropertyOptional({
    description:
      "An opaque id of the conversation or user session (1–128 characters), for the model's frequency cap: at most `max_ads` ads per session in `per_minutes`. Only its keyed hash is kept, in memory or Redis, never in clear and never in the database. Without it no cap applies.",
    example: 'c0nv-7f3a9b2e',
    minLength: 1,
    maxLength: 128,
  })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  session_id?: string;

  @ApiPropertyOptional({
    type: 'integer',
    description: `How many ads to answer with, at most: 1–${MAX_ADS_PER_REQUEST}, each of a different advertiser, best first. Fewer when fewer advertisers match (or the frequency cap leaves fewer); each ad is its own impression, link and receipt, billed on its own click.`,
    minimum: 1,
    maximum: MAX_ADS_PER_REQUEST,
    default: 1,
    example: 2,
  })
  @IsOptional()
  @Max(MAX_ADS_PER_REQUEST)
  @Min(1)
  @IsInt()
  max_ads?: number;

  @ApiPropertyOptional({
    type: ModerationDto,
    description:
      "Your own moderation model's verdict on this turn, in the shape of one result of OpenAI's moderation API (`flagged`, `categories`, `category_scores`; other fields are ignored). When it is flagged (or any category is `true`) no ad is shown: 404 `no_matching_ad` with reason `sensitive_topic`. Adline's own check runs either way.",
    example: { flagged: false, categories: { 'self-harm': false, violence: false } },
  })
  @ValidateNested()
  @Type(() => ModerationDto)
  @IsObject()
  @IsOptional()
  moderation?: ModerationDto;
}
