import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ProblemException } from '@/common/problem';
import { AdvertiserKeysService } from './advertiser-keys.service';

export type RequestWithAdvertiser = FastifyRequest & { advertiserId?: string };

/** `Authorization: Bearer adl_adv_…`; a missing or bad key is a 404, as fetch-ads answers. */
@Injectable()
export class AdvertiserKeyGuard implements CanActivate {
  constructor(private readonly keys: AdvertiserKeysService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<RequestWithAdvertiser>();
    const header = request.headers.authorization ?? '';
    const secret = /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
    if (!secret) {
      throw ProblemException.notFound(
        'missing_api_key',
        "Send the advertiser's key in the Authorization header: Bearer adl_adv_….",
      );
    }
    const advertiserId = await this.keys.advertiserOf(secret);
    if (!advertiserId) {
      throw ProblemException.notFound(
        'invalid_api_key',
        'The advertiser key is incorrect or revoked; verify it or ask for a new one.',
      );
    }
    request.advertiserId = advertiserId;
    return true;
  }
}
