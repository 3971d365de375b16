import {
  Body,
  Controller,
  Get,
  Header,
  HttpCode,
  Post,
  Query,
  Req,
  UseGuards,
} from '@nestjs/common';
import {
  ApiBody,
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiQuery,
  ApiSecurity,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import { ApiProblemResponses } from '@/common/api-problem-responses.decorator';
import { RATE_LIMIT_HEADERS } from '@/common/openapi-conventions';
import { RateLimitBy, RateLimitGuard } from '@/http/rate-limit.guard';
import { AdvertiserKeyGuard, type RequestWithAdvertiser } from './advertiser-key.guard';
import { ConversionsService } from './conversions.service';
import { ConversionBatchDto, ConversionDto, ConversionResultsDto } from './dto/conversion.dto';
import { PixelService } from './pixel.service';

@ApiTags('conversions')
@Controller('api/conversions')
export class ConversionsController {
  constructor(
    private readonly conversions: ConversionsService,
    private readonly pixel: PixelService,
  ) {}

  @Post()
  @HttpCode(200)
  @UseGuards(RateLimitGuard, AdvertiserKeyGuard)
  @RateLimitBy('api-key')
  @ApiSecurity('advertiser-key')
  @ApiOperation({
    summary: 'Report conversions (advertisers, server to server)',
    description:
      "With the advertiser's key (`Authorization: Bearer adl_adv_…`). The body is one conversion or `{ conversions: [...] }` (1–1,000; mind `BODY_LIMIT_BYTES`). Each is answered on its own, in order: `accepted`, `duplicate` (its `event_id` was recorded before: `conversion_id` is the first one's) or `rejected` with a `code`: `click_not_found` (unknown, forged or not one of this advertiser's clicks), `click_invalid` (the click was judged invalid or came from a test key), `outside_attribution_window` (before the click or more than the campaign's `attribution_window_days` after it), `validation_failed`.",
  })
  @ApiExtraModels(ConversionDto, ConversionBatchDto)
  @ApiBody({
    schema: {
      oneOf: [{ $ref: getSchemaPath(ConversionDto) }, { $ref: getSchemaPath(ConversionBatchDto) }],
    },
  })
  @ApiOkResponse({ type: ConversionResultsDto, headers: RATE_LIMIT_HEADERS })
  @ApiProblemResponses({
    400: ['validation_failed', 'malformed_json'],
    404: ['missing_api_key', 'invalid_api_key'],
    429: ['rate_limited'],
    503: ['database_unavailable'],
  })
  recordConversions(
    @Req() request: RequestWithAdvertiser,
    @Body() body: unknown,
  ): Promise<ConversionResultsDto> {
    return this.conversions.fromApi(request.advertiserId!, body);
  }

  @Get('pixel.gif')
  @UseGuards(RateLimitGuard)
  @RateLimitBy('client-ip')
  @Header('content-type', 'image/gif')
  @Header('cache-control', 'no-store')
  @Header('cross-origin-resource-policy', 'cross-origin')
  @ApiOperation({
    summary: 'Conversion pixel (browsers)',
    description:
      "A 1×1 GIF for the advertiser's pages, answered 200 whatever the query (a browser is never shown an error); it records the conversion under the rules of `POST /api/conversions` when `c` is the campaign's pixel token (its URL is in the campaign's `pixel.gif_url`) and the rest holds. Without `event_id`, each load is a conversion of its own.",
  })
  @ApiQuery({ name: 'c', required: true, description: "The campaign's pixel token." })
  @ApiQuery({
    name: 'event',
    required: true,
    example: 'purchase',
    description: 'What happened: 1–64 characters of a–z, 0–9 and `_`.',
  })
  @ApiQuery({ name: 'click_id', required: true, description: 'The click id of the landing URL.' })
  @ApiQuery({
    name: 'event_id',
    required: false,
    example: 'order-10023',
    description: 'Your id of the event: a repeat with the same id counts once.',
  })
  @ApiQuery({
    name: 'value',
    required: false,
    example: '49.90',
    description: 'What the conversion was worth, at most two decimals.',
  })
  @ApiQuery({
    name: 'currency',
    required: false,
    example: 'EUR',
    description: 'ISO 4217 code of `value`; USD when left out.',
  })
  @ApiOkResponse({
    description: 'A transparent 1×1 GIF (43 bytes).',
    content: { 'image/gif': { schema: { type: 'string', format: 'binary' } } },
    headers: RATE_LIMIT_HEADERS,
  })
  @ApiProblemResponses({ 429: ['rate_limited'] })
  pixelGif(@Query() query: Record<string, unknown>): Promise<Buffer> {
    return this.pixel.gif(query);
  }

  @Get('pixel.js')
  @UseGuards(RateLimitGuard)
  @RateLimitBy('client-ip')
  @Header('content-type', 'application/javascript; charset=utf-8')
  @Header('cache-control', 'public, max-age=300')
  @Header('cross-origin-resource-policy', 'cross-origin')
  @ApiOperation({
    summary: 'Conversion script (browsers)',
    description:
      "For the advertiser's pages (its URL is in the campaign's `pixel.script_url`): keeps the click id of the landing URL (the campaign's `click_id_param`) in a first-party cookie `adl_click` (30 days, SameSite=Lax) and exposes `window.adline.convert(event, { value, currency, event_id })`, which loads the pixel GIF. An unknown token gets a script whose `convert` does nothing.",
  })
  @ApiQuery({ name: 'c', required: true, description: "The campaign's pixel token." })
  @ApiOkResponse({
    description: 'The script.',
    content: { 'application/javascript': { schema: { type: 'string' } } },
    headers: RATE_LIMIT_HEADERS,
  })
  @ApiProblemResponses({ 429: ['rate_limited'] })
  pixelScript(@Query('c') token: unknown): Promise<string> {
    return this.pixel.script(token);
  }
}
