import { ApiPropertyOptional } from '@nestjs/swagger';

/** fetch-ads requests answered without a (billable) ad, by reason; reasons without any are left out. */
export class NoFillsDto {
  @ApiPropertyOptional({
    type: 'integer',
    description:
      'Answered 404 `no_matching_ad` with `reason: "no_match"`: no active campaign matched.',
    example: 12,
  })
  no_match?: number;
  @ApiPropertyOptional({
    type: 'integer',
    description:
      'Answered 404 `no_matching_ad` with `reason: "no_targeted_match"`: campaigns matched the keywords, but their location or device targeting excluded the user.',
    example: 5,
  })
  no_targeted_match?: number;
  @ApiPropertyOptional({
    type: 'integer',
    description:
      'Answered 404 `no_matching_ad` with `reason: "sensitive_topic"`: no ad beside a sensitive conversation.',
    example: 3,
  })
  sensitive_topic?: number;
  @ApiPropertyOptional({
    type: 'integer',
    description:
      'Answered 404 `no_matching_ad` with `reason: "frequency_cap"`: the session (`session_id`) had had the model\'s frequency cap of ads.',
    example: 4,
  })
  frequency_cap?: number;
  @ApiPropertyOptional({
    description:
      'Answered 404 `no_matching_ad` with `reason: "relevance_floor"`: no match was as relevant as the model\'s relevance floor asks.',
    example: 2,
  })
  relevance_floor?: number;
  @ApiPropertyOptional({
    type: 'integer',
    description:
      'Answered 404 `no_matching_ad` with `reason: "blocked"`: the model\'s blocked categories, advertisers or keywords, or the request\'s `excluded_topics`, refused every match.',
    example: 1,
  })
  blocked?: number;
  @ApiPropertyOptional({
    type: 'integer',
    description:
      'Requests made with a test key (`adl_test_…`), whether they got an ad or not: a test key’s ads are never billed, so they are no fill.',
    example: 5,
  })
  test?: number;
}
