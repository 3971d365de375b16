import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiProblemResponses } from '@/common/api-problem-responses.decorator';
import { Authenticated } from '@/common/authenticated.decorator';
import { CampaignTryService } from './campaign-try.service';
import { CampaignTryRequestDto, CampaignTryResultDto } from './dto/campaign-try.dto';

@ApiTags('admin')
@Controller('api/admin/campaigns/:id/try')
@Authenticated({ role: 'admin' })
@ApiParam({ name: 'id', description: 'Id of the campaign.' })
export class CampaignTryController {
  constructor(private readonly tries: CampaignTryService) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Whether and why fetch-ads would serve a campaign for a conversation (operators)',
    description:
      'Runs the safety check and the match of fetch-ads against the live campaigns without a publisher’s controls or frequency cap, and records nothing: no impression, no fill statistics.',
  })
  @ApiOkResponse({ type: CampaignTryResultDto })
  @ApiProblemResponses({
    400: ['validation_failed', 'malformed_json'],
    404: ['campaign_not_found'],
  })
  tryCampaign(
    @Param('id') id: string,
    @Body() body: CampaignTryRequestDto,
  ): Promise<CampaignTryResultDto> {
    return this.tries.tryCampaign(id, body);
  }
}
