import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal } from '@/common/authenticated.decorator';
import type { Principal } from '@/common/principal';
import { ApiProblemResponses } from '@/common/api-problem-responses.decorator';
import { StatsDto, StatsQueryDto } from './dto/stats.dto';
import { StatsService } from './stats.service';

@ApiTags('stats')
@Controller('api/stats')
@Authenticated()
export class StatsController {
  constructor(private readonly stats: StatsService) {}

  @Get()
  @ApiOperation({
    summary: 'Your usage statistics per UTC day and model',
    description:
      'Impressions, valid (billed) clicks, CTR and earnings, from roll-ups kept up to date as events are written, with totals. Invalid clicks (bots, duplicates, forged links) are not counted. Test keys’ traffic is never billed and shows apart, in `test_impressions` and `test_clicks`.',
  })
  @ApiOkResponse({ type: StatsDto })
  @ApiProblemResponses({ 400: ['validation_failed'], 404: ['model_not_found'] })
  getUsageStats(
    @CurrentPrincipal() principal: Principal,
    @Query() query: StatsQueryDto,
  ): Promise<StatsDto> {
    return this.stats.forPublisher(principal.publisherId, query);
  }
}
