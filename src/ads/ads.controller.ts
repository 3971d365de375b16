import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import {
  ApiConsumes,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiSecurity,
  ApiTags,
} from '@nestjs/swagger';
import { API_KEY_HEADER, ApiKeyGuard } from '@/publishers/api-key.guard';
import { CallingModel } from '@/publishers/calling-model.decorator';
import { ApiProblemResponses } from '@/common/api-problem-responses.decorator';
import { RATE_LIMIT_HEADERS } from '@/common/openapi-conventions';
import { RateLimitBy, RateLimitGuard } from '@/http/rate-limit.guard';
import type { KeyCredential } from '@/publishers/publisher-credentials';
import { AcceptLanguage } from './accept-language.decorator';
import { AdsService } from './ads.service';
import { FetchAdsRequestDto } from './dto/fetch-ads-request.dto';
import { FetchAdsResponseDto } from './dto/fetch-ads-response.dto';

@ApiTags('ads')
@Controller('api/fetch-ads')
@UseGuards(RateLimitGuard, ApiKeyGuard)
@RateLimitBy('api-key')
@ApiSecurity(API_KEY_HEADER)
export class AdsController {
  constructor(private readonly ads: AdsService) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Fetch the most suitable ad for a conversation',
    description:
      "The only endpoint a publisher calls, from its backend, with the AI model's key. Matches the keywords against active campaigns, records one impression, and returns one ad whose `campaign_markdown` can be appended to the AI reply. On any error or 404, show the reply without an ad. While building, call it with a test key (`adl_test_…`): real matching and links, nothing billed.",
  })
  @ApiConsumes('application/json')
  @ApiHeader({
    name: 'Accept-Language',
    required: false,
    description:
      "The reader's languages, with q-values: choose the language of the ad's `disclosure` label when the body has no `locale`. English when it names none with a label (en, de, fr, es, it, nl, pt).",
    example: 'de-DE,de;q=0.9,en;q=0.8',
  })
  @ApiOkResponse({
    type: FetchAdsResponseDto,
    description: 'One matching ad (up to `max_ads`); the impression of each is recorded.',
    headers: RATE_LIMIT_HEADERS,
  })
  @ApiProblemResponses({
    400: ['validation_failed', 'malformed_json'],
    404: ['missing_api_key', 'invalid_api_key', 'model_inactive', 'no_matching_ad'],
    429: ['rate_limited'],
    503: ['database_unavailable'],
  })
  fetchAds(
    @CallingModel() caller: KeyCredential,
    @Body() body: FetchAdsRequestDto,
    @AcceptLanguage() acceptLanguage?: string,
  ): Promise<FetchAdsResponseDto> {
    return this.ads.fetchAds(caller, body, acceptLanguage);
  }
}
