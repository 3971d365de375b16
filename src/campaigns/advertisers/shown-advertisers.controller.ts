import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal } from '@/common/authenticated.decorator';
import type { Principal } from '@/common/principal';
import { ShownAdvertiserDto } from '@/campaigns/dto/shown-advertiser.dto';
import { ShownAdvertisersService } from './shown-advertisers.service';

/** Read-only, for publishers: beside their models' controls in the OpenAPI document. */
@ApiTags('models')
@Controller('api/advertisers')
@Authenticated()
export class ShownAdvertisersController {
  constructor(private readonly advertisers: ShownAdvertisersService) {}

  @Get('shown')
  @ApiOperation({
    summary: 'Advertisers whose ads your models were served',
    description:
      'Every advertiser with an ad served to any of your AI models (with a live or a test key), ever, by name: its `id` is what a model’s `blocked_advertisers` control holds. An advertiser blocked since stays in the list.',
  })
  @ApiOkResponse({ type: [ShownAdvertiserDto] })
  listShownAdvertisers(@CurrentPrincipal() principal: Principal): Promise<ShownAdvertiserDto[]> {
    return this.advertisers.list(principal.publisherId);
  }
}
