import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { KeyCredential } from './publisher-credentials';
import type { RequestWithCaller } from './api-key.guard';

/** The credential `ApiKeyGuard` resolved for this request. */
export const CallingModel = createParamDecorator(
  (_: unknown, context: ExecutionContext): KeyCredential => {
    const caller = context.switchToHttp().getRequest<RequestWithCaller>().caller;
    if (!caller) throw new Error('CallingModel used on a route without ApiKeyGuard');
    return caller;
  },
);
