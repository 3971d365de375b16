import { Controller, Get, Query, Redirect, Req, UseGuards } from '@nestjs/common';
import { ApiFoundResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { ApiProblemResponses } from '@/common/api-problem-responses.decorator';
import { RATE_LIMIT_HEADERS } from '@/common/openapi-conventions';
import { RateLimitBy, RateLimitGuard } from '@/http/rate-limit.guard';
import { ClickService, followIntent } from './click.service';
import { ClickQueryDto } from './dto/click-query.dto';

const DESCRIPTION = `Reached by people following \`campaign_link\`; publishers do not call it. Records a click and redirects (302) to the campaign's own target URL, whether or not the click is billed: a person is never shown an error for clicking an ad (only a flood far above human rates is answered 429).

A click is billed once when the link is signed, its impression exists and belongs to the campaign and model, it is the impression's first billed click, it comes at least \`CLICK_MIN_SECONDS\` and at most \`CLICK_WINDOW_HOURS\` after the ad was served, from a browser that is not a known bot (headless browsers included), as a GET without a prefetch header, while the publisher, the model, the API key that fetched the ad and the campaign are all active (the campaign not past its end), within the client IP's limits and the campaign's budget. Every other follow is recorded, not billed, with its reason: \`bad_signature\`, \`unknown_impression\`, \`mismatch\`, \`duplicate\`, \`expired\`, \`bot\`, \`head_request\`, \`prefetch\`, \`too_fast\`, \`ip_limit\`, \`publisher_suspended\`, \`model_inactive\`, \`key_revoked\`, \`campaign_inactive\` (paused, archived or past its end); a valid click the budget cannot pay is recorded as \`over_budget\`.

An altered link still redirects: a repeated parameter, an \`imp\` or \`model_id\` over 64 or a \`sig\` over 128 characters are recorded as \`bad_signature\` (\`targetLink\` is never read). Only a missing or invalid \`campaign_id\` or a missing \`model_id\` answer 400, and a \`campaign_id\` naming no campaign 404.

When the database does not answer within \`DATABASE_TIMEOUT_MS\`, a click on a served campaign still redirects (its click is written when the database is back); a click on a campaign no longer served (paused, spent, ended), whose target URL only the database knows, answers 503 \`database_unavailable\` with \`Retry-After\`.`;

@ApiTags('tracking')
@Controller('api/campaign_click')
@UseGuards(RateLimitGuard)
@RateLimitBy('client-ip')
export class ClickController {
  constructor(private readonly clicks: ClickService) {}

  // Fastify answers HEAD through this GET route too; the click is then recorded as a
  // head_request, never billed.
  @Get()
  @Redirect()
  @ApiOperation({ summary: 'Follow an ad (tracking link)', description: DESCRIPTION })
  @ApiFoundResponse({
    description: "Redirect to the campaign's target URL (Location header).",
    headers: {
      Location: {
        description: "The campaign's own target URL (never the link's `targetLink`).",
        schema: { type: 'string' },
      },
      ...RATE_LIMIT_HEADERS,
    },
  })
  @ApiProblemResponses({
    400: ['validation_failed'],
    404: ['campaign_not_found'],
    429: ['rate_limited'],
    503: ['database_unavailable'],
  })
  async campaignClick(
    @Query() query: ClickQueryDto,
    @Req() request: FastifyRequest,
  ): Promise<{ url: string; statusCode: number }> {
    const url = await this.clicks.follow(query, {
      userAgent: request.headers['user-agent'],
      ip: request.ip,
      intent: followIntent(request.method, request.headers),
    });
    return { url, statusCode: 302 };
  }
}
