import { Body, Controller, Get, Param, Patch, Post, Query } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { Authenticated } from '@/common/authenticated.decorator';
import { ApiProblemResponses } from '@/common/api-problem-responses.decorator';
import { AdvertiserManagementService } from './advertiser-management.service';
import {
  AdvertiserDto,
  AdvertiserListQueryDto,
  AdvertiserPageDto,
  CreateAdvertiserDto,
  UpdateAdvertiserDto,
} from '@/campaigns/dto/advertiser.dto';

@ApiTags('admin')
@Controller('api/admin/advertisers')
@Authenticated({ role: 'admin' })
export class AdvertisersController {
  constructor(private readonly advertisers: AdvertiserManagementService) {}

  @Get()
  @ApiOperation({
    summary: 'List advertisers (operators)',
    description: 'Newest first, `per_page` (at most 100) at a time; filter by `status`.',
  })
  @ApiOkResponse({ type: AdvertiserPageDto })
  @ApiProblemResponses({ 400: ['validation_failed'] })
  listAdvertisers(@Query() query: AdvertiserListQueryDto): Promise<AdvertiserPageDto> {
    return this.advertisers.listAdvertisers(query);
  }

  @Post()
  @ApiOperation({
    summary: 'Create an advertiser (operators)',
    description: 'A new advertiser is `active`; campaigns are created for it with its `id`.',
  })
  @ApiCreatedResponse({ type: AdvertiserDto })
  @ApiProblemResponses({ 400: ['validation_failed'] })
  createAdvertiser(@Body() body: CreateAdvertiserDto): Promise<AdvertiserDto> {
    return this.advertisers.createAdvertiser(body);
  }

  @Get(':id')
  @ApiParam({ name: 'id', description: 'Id of the advertiser.' })
  @ApiOperation({
    summary: 'Read an advertiser (operators)',
    description: 'Its name, contact email and status.',
  })
  @ApiOkResponse({ type: AdvertiserDto })
  @ApiProblemResponses({ 404: ['advertiser_not_found'] })
  getAdvertiser(@Param('id') id: string): Promise<AdvertiserDto> {
    return this.advertisers.getAdvertiser(id);
  }

  @Patch(':id')
  @ApiParam({ name: 'id', description: 'Id of the advertiser.' })
  @ApiOperation({
    summary: 'Change an advertiser (operators)',
    description:
      'Name, contact email and status. While an advertiser is `inactive`, none of its campaigns is served.',
  })
  @ApiOkResponse({ type: AdvertiserDto })
  @ApiProblemResponses({ 400: ['validation_failed'], 404: ['advertiser_not_found'] })
  updateAdvertiser(
    @Param('id') id: string,
    @Body() body: UpdateAdvertiserDto,
  ): Promise<AdvertiserDto> {
    return this.advertisers.updateAdvertiser(id, body);
  }
}
