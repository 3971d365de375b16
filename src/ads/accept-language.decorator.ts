import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';

/**
 * The request's Accept-Language header. Not `@Headers()`, which Swagger would document as a
 * second, required parameter beside the optional one `@ApiHeader` describes.
 */
export const AcceptLanguage = createParamDecorator(
  (_: unknown, context: ExecutionContext): string | undefined =>
    context.switchToHttp().getRequest<FastifyRequest>().headers['accept-language'],
);
