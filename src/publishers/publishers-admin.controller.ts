import { Body, Controller, Get, Param, Patch, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal } from '@/common/authenticated.decorator';
import type { Principal } from '@/common/principal';
import { ApiProblemResponses } from '@/common/api-problem-responses.decorator';
import { ModelDto, OperatorModelStatusDto } from './dto/model.dto';
import { PublisherDto } from './dto/publisher.dto';
import {
  PublisherAuditDto,
  PublisherListQueryDto,
  PublisherModelListDto,
  PublisherPageDto,
  UpdatePublisherDto,
} from './dto/publisher-admin.dto';
import { ModelsService } from './models.service';
import { PublisherAccountsService } from './publisher-accounts.service';

/** Operators' routes over publishers and their models; a publisher gets 403. */
@ApiTags('admin')
@Controller('api/admin')
@Authenticated({ role: 'admin' })
export class PublishersAdminController {
  constructor(
    private readonly accounts: PublisherAccountsService,
    private readonly models: ModelsService,
  ) {}

  @Get('publishers')
  @ApiOperation({
    summary: 'Operators: every publisher account, oldest first, page by page',
    description:
      'Each with its role, status and revenue share; `per_page` (at most 100) at a time.',
  })
  @ApiOkResponse({ type: PublisherPageDto })
  @ApiProblemResponses({ 400: ['validation_failed'] })
  listPublishers(@Query() query: PublisherListQueryDto): Promise<PublisherPageDto> {
    return this.accounts.list(query);
  }

  @Patch('publishers/:id')
  @ApiOperation({
    summary: "Operators: change a publisher's revenue share or status",
    description:
      "Takes effect at once: new impressions carry the new share; a suspended publisher cannot sign in and its keys answer 404 `model_inactive`. A status change is kept in the publisher's audit with the operator, the time and the optional `reason` (only with `status`).",
  })
  @ApiParam({ name: 'id', description: 'Id of the publisher.' })
  @ApiOkResponse({ type: PublisherDto })
  @ApiProblemResponses({
    400: ['validation_failed', 'malformed_json'],
    404: ['publisher_not_found'],
    409: ['conflict'],
  })
  updatePublisher(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Body() body: UpdatePublisherDto,
  ): Promise<PublisherDto> {
    return this.accounts.updateAsOperator(principal.publisherId, id, body);
  }

  @Get('publishers/:id/models')
  @ApiOperation({
    summary: "Operators: a publisher's AI models, oldest first",
    description:
      'With their status and controls, as the publisher sees them; deactivated ones too.',
  })
  @ApiParam({ name: 'id', description: 'Id of the publisher.' })
  @ApiOkResponse({ type: PublisherModelListDto })
  @ApiProblemResponses({ 404: ['publisher_not_found'] })
  listPublisherModels(@Param('id') id: string): Promise<PublisherModelListDto> {
    return this.models.listAsOperator(id);
  }

  @Get('publishers/:id/audit')
  @ApiOperation({
    summary: "Operators: a publisher's status changes, newest first",
    description:
      'Each suspension or reactivation: the operator (`actor_id`), when, from which status to which, and the `reason` given.',
  })
  @ApiParam({ name: 'id', description: 'Id of the publisher.' })
  @ApiOkResponse({ type: PublisherAuditDto })
  @ApiProblemResponses({ 404: ['publisher_not_found'] })
  listPublisherAudit(@Param('id') id: string): Promise<PublisherAuditDto> {
    return this.accounts.audit(id);
  }

  @Patch('models/:id')
  @ApiOperation({
    summary: "Operators: activate or deactivate any publisher's AI model",
    description:
      "Deactivating makes the model's keys answer 404 `model_inactive` at once, and its publisher cannot reactivate it.",
  })
  @ApiParam({ name: 'id', description: 'Id of the AI model.' })
  @ApiOkResponse({ type: ModelDto })
  @ApiProblemResponses({ 400: ['validation_failed', 'malformed_json'], 404: ['model_not_found'] })
  updateModelStatus(
    @Param('id') id: string,
    @Body() body: OperatorModelStatusDto,
  ): Promise<ModelDto> {
    return this.models.setStatusAsOperator(id, body.status);
  }
}
