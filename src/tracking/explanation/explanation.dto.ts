import { ApiProperty } from '@nestjs/swagger';
import {
  KEYWORD_MATCHES,
  KEYWORD_SOURCES,
  type KeywordMatch,
  type KeywordSource,
  WORD_MATCHES,
  type WordMatch,
} from '@/campaign-index/explain';
import { DEVICES, type Device } from '@/campaigns/campaigns/devices';

export class MatchedWordDto {
  @ApiProperty({ description: 'A word of the keyword, or of its translation.', example: 'hotel' })
  word: string;

  @ApiProperty({
    enum: WORD_MATCHES,
    description:
      '`exact`: a sent keyword holds the word as written. `stem`: a sent keyword holds another form of it (plural, case ending: "hotel" for "hotels"), read in the conversation\'s language. `part`: a sent word is the leading or trailing part of this longer word ("katzen" in "katzenfutter"). `conversation`: not sent, but the conversation holds it as written.',
    example: 'stem',
  })
  match: WordMatch;
}

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

  @ApiProperty({
    enum: KEYWORD_MATCHES,
    description:
      '`exact`: met as written. `stem`: every word met, some only by stem. `partial`: its rarer words met, not all (a generic word such as "online" or "software" never carries a match alone). `translation`: met through a translation the operator entered for it.',
    example: 'exact',
  })
  match: KeywordMatch;

  @ApiProperty({
    type: [MatchedWordDto],
    description:
      "The words that met the request, and how: the keyword's own, or its translation's when `match` is `translation`.",
    example: [{ word: 'gpu', match: 'exact' }],
  })
  words: MatchedWordDto[];

  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'The translation that met the request when `match` is `translation`; otherwise null.',
    example: null,
  })
  translation: string | null;
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
      {
        keyword: 'gpu',
        source: 'context_keywords',
        match: 'exact',
        words: [{ word: 'gpu', match: 'exact' }],
        translation: null,
      },
      {
        keyword: 'machine learning',
        source: 'conversation',
        match: 'exact',
        words: [
          { word: 'machine', match: 'exact' },
          { word: 'learning', match: 'exact' },
        ],
        translation: null,
      },
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
      "Relevance from 0 to 1 (6 decimals): the share of the weight of the campaign's three heaviest keywords that the request met (rarer keywords weigh more; a keyword met by stem, in part or through a translation counts a share; conversation keywords count at half weight), times 0.7 + 0.3 × the share of the request's sent keywords the campaign explains, times 0.7 when the conversation asks for nothing. Below 0.12 no ad is served.",
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
