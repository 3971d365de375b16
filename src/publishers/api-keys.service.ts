import { HttpStatus, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { ProblemException } from '@/common/problem';
import { transactionWithRetry } from '@/database/sql';
import { ApiKeyDto, CreatedApiKeyDto, toApiKeyDto } from './dto/api-key.dto';
import { AiModel } from './entities/ai-model.entity';
import { ApiKey } from './entities/api-key.entity';
import { KeyUsageTracker } from './key-usage-tracker.service';
import { ModelsService, modelNotFound } from './models.service';
import { PublishersService } from './publishers.service';

/** Enough to rotate keys without downtime, few enough that a leak stays traceable. */
export const MAX_ACTIVE_KEYS_PER_MODEL = 10;

/** The API keys of a publisher's models, as the management API lists, issues and revokes them. */
@Injectable()
export class ApiKeysService {
  constructor(
    @InjectRepository(ApiKey) private readonly keys: Repository<ApiKey>,
    private readonly dataSource: DataSource,
    private readonly models: ModelsService,
    private readonly publishers: PublishersService,
    private readonly usage: KeyUsageTracker,
  ) {}

  async list(publisherId: string, modelId: string): Promise<ApiKeyDto[]> {
    const model = await this.models.owned(publisherId, modelId);
    const keys = await this.keys.find({
      where: { modelId: model.id },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
    return keys.map((key) => toApiKeyDto(key, this.usage.unwrittenUse(key.id)));
  }

  async issue(
    publisherId: string,
    modelId: string,
    label: string | null = null,
  ): Promise<CreatedApiKeyDto> {
    const created = await transactionWithRetry(this.dataSource.manager, async (manager) => {
      // Writing the model row first locks it (on MySQL and SQLite alike), so concurrent
      // requests count the active keys one after the other and never exceed the limit.
      const locked = await manager.update(
        AiModel,
        { id: modelId, publisherId },
        { updatedAt: new Date() },
      );
      if (!locked.affected) throw modelNotFound();
      const active = await manager.countBy(ApiKey, { modelId, status: 'active' });
      if (active >= MAX_ACTIVE_KEYS_PER_MODEL) {
        throw new ProblemException(
          HttpStatus.CONFLICT,
          'key_limit_reached',
          `A model holds at most ${MAX_ACTIVE_KEYS_PER_MODEL} active keys; revoke one first.`,
        );
      }
      return this.publishers.createApiKey(modelId, label, manager);
    });
    return { ...toApiKeyDto(created.key), key: created.secret };
  }

  /** Revokes a key of the model; revoking a revoked key changes nothing. */
  async revoke(publisherId: string, modelId: string, keyId: string): Promise<void> {
    const model = await this.models.owned(publisherId, modelId);
    const key = await this.keys.findOneBy({ id: keyId, modelId: model.id });
    if (!key)
      throw ProblemException.notFound('api_key_not_found', 'This model has no key with this id.');
    if (key.status === 'active') await this.publishers.revokeApiKey(key.id);
  }
}
