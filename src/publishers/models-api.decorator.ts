import { applyDecorators, Controller } from '@nestjs/common';
import { ApiParam, ApiTags } from '@nestjs/swagger';
import { Authenticated } from '@/common/authenticated.decorator';

/**
 * A controller of the publisher's own models and their keys: the `models` tag in the
 * OpenAPI document, routes under `path`, a session needed for each.
 */
export function ModelsApiController(path: string): ClassDecorator {
  return applyDecorators(ApiTags('models'), Controller(path), Authenticated());
}

/** Documents the `:id` in `api/models/:id…`. */
export function ApiModelIdParam(): MethodDecorator {
  return ApiParam({ name: 'id', description: 'Id of one of your AI models.' });
}
