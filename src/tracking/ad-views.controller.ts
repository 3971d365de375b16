import { Controller, Get, HttpCode, Param, Post, Req, Res, UseGuards } from '@nestjs/common';
import {
  ApiNoContentResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
  type ApiResponseOptions,
} from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiProblemResponses } from '@/common/api-problem-responses.decorator';
import { RATE_LIMIT_HEADERS } from '@/common/openapi-conventions';
import { RateLimitBy, RateLimitGuard } from '@/http/rate-limit.guard';
import { AdViewsService } from './ad-views.service';

const DESCRIPTION = `Each served ad carries its \`view_url\`; the publisher's client calls it (\`POST\`, or \`GET\`) once the ad is on screen, from a browser or from its backend, without credentials. It answers 204 with no body, and \`Access-Control-Allow-Origin: *\` so a web page on any origin may call it (as a simple request: no preflight).

A view counts at most once per impression, however often or concurrently it is called (a repeat answers 204 too), and only within \`VIEW_WINDOW_MINUTES\` (60 by default) after the ad was served: later, 410 \`view_expired\`. A view of a test key's ad is recorded but counted apart, never in live figures. A token that is malformed or whose signature fails answers 404 \`view_not_found\`. Rate limited per client IP, as clicks are.`;

const PARAM = {
  name: 'token',
  description: "The last segment of the ad's `view_url`: `<impression id>.<signature>`.",
  example: '019a8a3e-5b1c-7cc1-9d0e-3f2a1b4c5d6e.Xp2c0vQm1LzAe8Rk3TnYbA',
};
const NO_CONTENT: ApiResponseOptions = {
  description: 'Recorded, now or before.',
  headers: {
    'Access-Control-Allow-Origin': { description: 'Always `*`.', schema: { type: 'string' } },
    ...RATE_LIMIT_HEADERS,
  },
};
const PROBLEMS = {
  404: ['view_not_found' as const],
  410: ['view_expired' as const],
  429: ['rate_limited' as const],
  503: ['database_unavailable' as const],
};

/** Viewed ads: the route every served ad's `view_url` names, open to browsers of any origin. */
@ApiTags('tracking')
@Controller('api/ad-views')
@UseGuards(RateLimitGuard)
@RateLimitBy('client-ip')
export class AdViewsController {
  constructor(private readonly views: AdViewsService) {}

  @Post(':token')
  @HttpCode(204)
  @ApiOperation({ summary: 'Record that an ad was seen', description: DESCRIPTION })
  @ApiParam(PARAM)
  @ApiNoContentResponse(NO_CONTENT)
  @ApiProblemResponses(PROBLEMS)
  recordAdView(
    @Param('token') token: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<void> {
    return this.views.record(openToAnyOrigin(reply, token));
  }

  @Get(':token')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Record that an ad was seen (GET)',
    description:
      'The same as `POST`, for clients that can only make a GET (an image beacon). A `HEAD` (a link checker, a prefetch) answers 204 and records nothing.',
  })
  @ApiParam(PARAM)
  @ApiNoContentResponse(NO_CONTENT)
  @ApiProblemResponses(PROBLEMS)
  async recordAdViewByGet(
    @Param('token') token: string,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<void> {
    // Fastify answers HEAD through the GET route; nobody saw an ad that a HEAD fetched.
    if (request.method === 'HEAD') return;
    await this.views.record(openToAnyOrigin(reply, token));
  }
}

/**
 * The app has no CORS of its own: this one route answers any origin, its 404 and 410 too
 * (set before the service can throw). Never with credentials: the call carries none.
 */
function openToAnyOrigin(reply: FastifyReply, token: string): string {
  void reply.header('access-control-allow-origin', '*');
  return token;
}
