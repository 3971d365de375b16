import { Controller, Get, Headers, Query, Redirect, UseGuards } from '@nestjs/common';
import { ApiFoundResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiProblemResponses } from '@/common/api-problem-responses.decorator';
import { RateLimitBy, RateLimitGuard } from '@/common/rate-limit.guard';
import { ClickService } from './click.service';
import { ClickQueryDto } from './dto/click-query.dto';

@ApiTags('tracking')
@Controller('api/campaign_click')
@UseGuards(RateLimitGuard)
@RateLimitBy('client-ip')
export class ClickController {
  constructor(private readonly clicks: ClickService) {}

  @Get()
  @Redirect()
  @ApiOperation({
    summary: 'Follow an ad (tracking link)',
    description:
      "Reached by people following `campaign_link`; publishers do not call it. Records a click and redirects (302) to the campaign's own target URL. A valid click (signed link, known impression, first click, inside the click window, not a known bot) is billed once; other follows are recorded as invalid and never billed.",
  })
  @ApiFoundResponse({ description: "Redirect to the campaign's target URL (Location header)." })
  @ApiProblemResponses({ 400: ['validation_failed'], 404: ['campaign_not_found'] })
  async campaignClick(
    @Query() query: ClickQueryDto,
    @Headers('user-agent') userAgent?: string,
  ): Promise<{ url: string; statusCode: number }> {
    return { url: await this.clicks.follow(query, userAgent), statusCode: 302 };
  }
}
