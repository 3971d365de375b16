import { HttpStatus, Injectable } from '@nestjs/common';
import { ProblemException } from '@/common/problem';
import { ApiKeysRepository } from './api-keys.repository';
import { ApiKeyDto, CreatedApiKeyDto, toApiKeyDto } from './dto/api-key.dto';
import type { ApiKeyKind } from './entities/api-key.entity';
import { KeyUsageTracker } from './key-usage-tracker.service';
import { ModelsRepository } from './models.repository';
import { ModelsService, modelNotFound } from './models.service';
import { PublishersService } from './publishers.service';

/** Enough to rotate keys without downtime, few enough that a leak stays traceable. */
export const MAX_ACTIVE_KEYS_PER_MODEL = 10;

/** The API keys of a publisher's models, as the management API lists, issues and revokes them. */
@Injectable()
export class ApiKeysService {
  constructor(
    private readonly keys: ApiKeysRepository,
    private readonly modelRows: ModelsRepository,
    private readonly models: ModelsService,
    private readonly publishers: PublishersService,
    private readonly usage: KeyUsageTracker,
  ) {}

  async list(publisherId: string, modelId: string): Promise<ApiKeyDto[]> {
    const model = await this.models.owned(publisherId, modelId);
    const keys = await this.keys.listOldestFirst(model.id);
    return keys.map((key) => toApiKeyDto(key, this.usage.unwrittenUse(key.id)));
  }

  async issue(
    publisherId: string,
    modelId: string,
    label: string | null = null,
    kind: ApiKeyKind = 'live',
  ): Promise<CreatedApiKeyDto> {
    const created = await this.keys.transaction(async (transaction) => {
      // Locking the model first makes concurrent requests count its active keys one after
      // the other, so they never exceed the limit.
      const locked = await this.modelRows.lockOwned(transaction, publisherId, modelId, new Date());
      if (!locked) throw modelNotFound();
      const active = await this.keys.countActive(transaction, modelId);
      if (active >= MAX_ACTIVE_KEYS_PER_MODEL) {
        throw new ProblemException(
          HttpStatus.CONFLICT,
          'key_limit_reached',
          `A model holds at most ${MAX_ACTIVE_KEYS_PER_MODEL} active keys; revoke one first.`,
        );
      }
      return this.publishers.createApiKey(modelId, label, transaction, kind);
    });
    return { ...toApiKeyDto(created.key), key: created.secret };
  }

  /** Revokes a key of the model; revoking a revoked key changes nothing. */
  async revoke(publisherId: string, modelId: string, keyId: string): Promise<void> {
    const model = await this.models.owned(publisherId, modelId);
    const key = await this.keys.findOfModel(model.id, keyId);
    if (!key)
      throw ProblemException.notFound('api_key_not_found', 'This model has no key with this id.');
    if (key.status === 'active') await this.publishers.revokeApiKey(key.id);
  }
}
