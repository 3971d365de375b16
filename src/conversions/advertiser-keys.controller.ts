import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { ApiProblemResponses } from '@/common/api-problem-responses.decorator';
import { Authenticated } from '@/common/authenticated.decorator';
import { AdvertiserKeysService } from './advertiser-keys.service';
import {
  AdvertiserKeyListDto,
  CreateAdvertiserKeyDto,
  CreatedAdvertiserKeyDto,
} from './dto/advertiser-key.dto';

/** Operators manage advertisers' conversion keys; a publisher gets 403. */
@ApiTags('admin')
@Controller('api/admin/advertisers/:id/keys')
@Authenticated({ role: 'admin' })
@ApiParam({ name: 'id', description: 'Id of the advertiser.' })
export class AdvertiserKeysController {
  constructor(private readonly keys: AdvertiserKeysService) {}

  @Post()
  @ApiOperation({
    summary: "Create an advertiser's conversions key (operators)",
    description:
      'The key (`adl_adv_…`) is in this answer only: it is stored as a hash. The advertiser sends it as `Authorization: Bearer …` to `POST /api/conversions`.',
  })
  @ApiCreatedResponse({ type: CreatedAdvertiserKeyDto })
  @ApiProblemResponses({
    400: ['validation_failed', 'malformed_json'],
    404: ['advertiser_not_found'],
  })
  createAdvertiserKey(
    @Param('id') id: string,
    @Body() body: CreateAdvertiserKeyDto,
  ): Promise<CreatedAdvertiserKeyDto> {
    return this.keys.create(id, body);
  }

  @Get()
  @ApiOperation({
    summary: "List an advertiser's conversions keys (operators)",
    description: 'Newest first, revoked ones included, never the secrets.',
  })
  @ApiOkResponse({ type: AdvertiserKeyListDto })
  @ApiProblemResponses({ 404: ['advertiser_not_found'] })
  listAdvertiserKeys(@Param('id') id: string): Promise<AdvertiserKeyListDto> {
    return this.keys.list(id);
  }

  @Delete(':keyId')
  @HttpCode(204)
  @ApiParam({ name: 'keyId', description: 'Id of the key.' })
  @ApiOperation({
    summary: "Revoke an advertiser's conversions key (operators)",
    description:
      'It stops working at once on this instance, and on the others within `API_KEY_CACHE_SECONDS`. Revoking it again answers 204 too.',
  })
  @ApiNoContentResponse({ description: 'Revoked.' })
  @ApiProblemResponses({ 404: ['advertiser_key_not_found'] })
  async revokeAdvertiserKey(@Param('id') id: string, @Param('keyId') keyId: string): Promise<void> {
    await this.keys.revoke(id, keyId);
  }
}
