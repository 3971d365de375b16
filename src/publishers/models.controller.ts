import { Body, Get, Param, Patch, Post, Put } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { CurrentPrincipal } from '@/common/authenticated.decorator';
import type { Principal } from '@/common/principal';
import { ApiProblemResponses } from '@/common/api-problem-responses.decorator';
import { CreatedModelDto, CreateModelDto, ModelDto, UpdateModelDto } from './dto/model.dto';
import { SetModelControlsDto } from './dto/model-controls.dto';
import { ApiModelIdParam, ModelsApiController } from './models-api.decorator';
import { ModelsService } from './models.service';

@ModelsApiController('api/models')
export class ModelsController {
  constructor(private readonly models: ModelsService) {}

  @Get()
  @ApiOperation({
    summary: 'Your AI models, oldest first',
    description: 'Every model of the signed-in publisher, with its status and ad controls.',
  })
  @ApiOkResponse({ type: [ModelDto] })
  listModels(@CurrentPrincipal() principal: Principal): Promise<ModelDto[]> {
    return this.models.list(principal.publisherId);
  }

  @Post()
  @ApiOperation({
    summary: 'Register an AI model',
    description:
      'The model starts active with its first API key, whose secret is shown only in this response. More keys: `POST /api/models/{id}/keys`.',
  })
  @ApiCreatedResponse({ type: CreatedModelDto })
  @ApiProblemResponses({ 400: ['validation_failed', 'malformed_json'] })
  createModel(
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateModelDto,
  ): Promise<CreatedModelDto> {
    return this.models.create(principal.publisherId, body);
  }

  @Get(':id')
  @ApiOperation({
    summary: 'One of your AI models',
    description: 'The model with its status and ad controls.',
  })
  @ApiModelIdParam()
  @ApiOkResponse({ type: ModelDto })
  @ApiProblemResponses({ 404: ['model_not_found'] })
  getModel(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<ModelDto> {
    return this.models.get(principal.publisherId, id);
  }

  @Patch(':id')
  @ApiOperation({
    summary: 'Change an AI model: name, description, link or status',
    description:
      "Deactivating makes the model's keys answer 404 `model_inactive` at once; reactivating restores them. A model an operator deactivated stays so (403 `model_locked`).",
  })
  @ApiModelIdParam()
  @ApiOkResponse({ type: ModelDto })
  @ApiProblemResponses({
    400: ['validation_failed', 'malformed_json'],
    // A route's 403 replaces the one @Authenticated() states (one answer per status), hence `forbidden`.
    403: ['forbidden', 'model_locked'],
    404: ['model_not_found'],
  })
  updateModel(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Body() body: UpdateModelDto,
  ): Promise<ModelDto> {
    return this.models.update(principal.publisherId, id, body);
  }

  @Put(':id/controls')
  @ApiOperation({
    summary:
      "Set an AI model's controls: blocked categories, advertisers and keywords, relevance floor, frequency cap",
    description:
      "Replaces the model's controls as a whole: a field left out takes its default (nothing blocked, `relevance_floor` 0, `frequency_cap` null). The next fetch-ads call with any of the model's keys applies them, on every instance.",
  })
  @ApiModelIdParam()
  @ApiOkResponse({ type: ModelDto, description: 'The model, with its new `controls`.' })
  @ApiProblemResponses({ 400: ['validation_failed', 'malformed_json'], 404: ['model_not_found'] })
  setModelControls(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Body() body: SetModelControlsDto,
  ): Promise<ModelDto> {
    return this.models.setControls(principal.publisherId, id, body);
  }
}
