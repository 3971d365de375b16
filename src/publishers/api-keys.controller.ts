import { Body, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import {
  ApiBody,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
} from '@nestjs/swagger';
import { CurrentPrincipal } from '@/common/authenticated.decorator';
import type { Principal } from '@/common/principal';
import { ApiProblemResponses } from '@/common/api-problem-responses.decorator';
import { MAX_ACTIVE_KEYS_PER_MODEL, ApiKeysService } from './api-keys.service';
import { ApiKeyDto, CreateApiKeyDto, CreatedApiKeyDto } from './dto/api-key.dto';
import { ApiModelIdParam, ModelsApiController } from './models-api.decorator';

@ModelsApiController('api/models/:id/keys')
export class ApiKeysController {
  constructor(private readonly keys: ApiKeysService) {}

  @Get()
  @ApiOperation({
    summary: "The model's API keys, active and revoked (never the secret)",
    description: 'Each key with its kind (live or test), prefix, label and when it was last used.',
  })
  @ApiModelIdParam()
  @ApiOkResponse({ type: [ApiKeyDto] })
  @ApiProblemResponses({ 404: ['model_not_found'] })
  listApiKeys(
    @CurrentPrincipal() principal: Principal,
    @Param('id') modelId: string,
  ): Promise<ApiKeyDto[]> {
    return this.keys.list(principal.publisherId, modelId);
  }

  @Post()
  @ApiOperation({
    summary: 'Create an API key for the model',
    description: `The secret \`key\` is in this response only; store it at once. A model holds up to ${MAX_ACTIVE_KEYS_PER_MODEL} active keys (live and test together), so a new key can be deployed before the old one is revoked. The body is optional: without \`kind\` the key is live; \`"kind": "test"\` makes a test key (\`adl_test_…\`), which gets real ads and working links but is never billed, for building and testing an integration.`,
  })
  @ApiModelIdParam()
  @ApiBody({ type: CreateApiKeyDto, required: false })
  @ApiCreatedResponse({ type: CreatedApiKeyDto })
  @ApiProblemResponses({
    400: ['validation_failed', 'malformed_json'],
    404: ['model_not_found'],
    409: ['key_limit_reached'],
  })
  createApiKey(
    @CurrentPrincipal() principal: Principal,
    @Param('id') modelId: string,
    @Body() body: CreateApiKeyDto,
  ): Promise<CreatedApiKeyDto> {
    return this.keys.issue(principal.publisherId, modelId, body.label ?? null, body.kind);
  }

  @Delete(':keyId')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Revoke an API key',
    description: 'Effective at once: the key answers 404 `invalid_api_key` from now on.',
  })
  @ApiModelIdParam()
  @ApiParam({ name: 'keyId', description: 'Id of a key of that model.' })
  @ApiNoContentResponse({ description: 'Revoked (or already revoked).' })
  @ApiProblemResponses({ 404: ['model_not_found', 'api_key_not_found'] })
  revokeApiKey(
    @CurrentPrincipal() principal: Principal,
    @Param('id') modelId: string,
    @Param('keyId') keyId: string,
  ): Promise<void> {
    return this.keys.revoke(principal.publisherId, modelId, keyId);
  }
}
