import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { generateApiKey } from './api-key-material';
import { AppConfig } from '@/config/app-config';
import { newId } from '@/database/columns';
import { ApiKeyResolver } from './api-key-resolver.service';
import { CredentialChanges } from './credential-changes.service';
import { AiModel, ModelDeactivator, ModelStatus } from './entities/ai-model.entity';
import { ApiKey } from './entities/api-key.entity';
import { Publisher, PublisherRole } from './entities/publisher.entity';

export interface NewPublisher {
  email: string;
  name: string;
  passwordHash?: string | null;
  role?: PublisherRole;
  revenueSharePpm?: number;
}

export interface NewModel {
  name: string;
  description?: string | null;
  link?: string | null;
}

/** Publisher accounts, their AI models and the models' API keys. */
@Injectable()
export class PublishersService {
  constructor(
    @InjectRepository(Publisher) private readonly publishers: Repository<Publisher>,
    @InjectRepository(AiModel) private readonly models: Repository<AiModel>,
    @InjectRepository(ApiKey) private readonly keys: Repository<ApiKey>,
    private readonly resolver: ApiKeyResolver,
    private readonly credentialChanges: CredentialChanges,
    private readonly config: AppConfig,
  ) {}

  async createPublisher(input: NewPublisher): Promise<Publisher> {
    const now = new Date();
    return this.publishers.save(
      this.publishers.create({
        id: newId(),
        email: input.email.trim().toLowerCase(),
        name: input.name,
        passwordHash: input.passwordHash ?? null,
        role: input.role ?? 'publisher',
        status: 'active',
        revenueSharePpm: input.revenueSharePpm ?? this.config.defaultRevenueSharePpm,
        createdAt: now,
        updatedAt: now,
      }),
    );
  }

  findPublisher(id: string): Promise<Publisher | null> {
    return this.publishers.findOneBy({ id });
  }

  findPublisherByEmail(email: string): Promise<Publisher | null> {
    return this.publishers.findOneBy({ email: email.trim().toLowerCase() });
  }

  /** Publisher accounts only: operators share the table but publish nothing. */
  countPublishers(): Promise<number> {
    return this.publishers.countBy({ role: 'publisher' });
  }

  async createModel(publisherId: string, input: NewModel): Promise<AiModel> {
    const now = new Date();
    return this.models.save(
      this.models.create({
        id: newId(),
        publisherId,
        name: input.name,
        description: input.description ?? null,
        link: input.link ?? null,
        status: 'active',
        deactivatedBy: null,
        createdAt: now,
        updatedAt: now,
      }),
    );
  }

  /** A model of this publisher, or null for an unknown id or another publisher's model. */
  findOwnedModel(publisherId: string, modelId: string): Promise<AiModel | null> {
    return this.models.findOneBy({ id: modelId, publisherId });
  }

  /** Changes a model's status; its keys answer accordingly at once, on every instance. */
  async setModelStatus(
    modelId: string,
    status: ModelStatus,
    by: ModelDeactivator = 'publisher',
  ): Promise<void> {
    const deactivatedBy = status === 'deactivated' ? by : null;
    await this.models.update({ id: modelId }, { status, deactivatedBy, updatedAt: new Date() });
    await this.credentialChanges.announce({ kind: 'model', id: modelId });
  }

  /**
   * Creates a key; the secret is returned here once and never stored. Pass the manager of a
   * transaction to create it inside that transaction.
   */
  async createApiKey(
    modelId: string,
    label: string | null = null,
    manager: EntityManager = this.keys.manager,
  ): Promise<{ key: ApiKey; secret: string }> {
    const material = generateApiKey();
    const key = await manager.save(
      manager.create(ApiKey, {
        id: newId(),
        modelId,
        prefix: material.prefix,
        keyHash: material.hash,
        label,
        status: 'active',
        createdAt: new Date(),
        revokedAt: null,
        lastUsedAt: null,
      }),
    );
    this.resolver.forgetUnknown();
    return { key, secret: material.secret };
  }

  async revokeApiKey(keyId: string): Promise<void> {
    await this.keys.update({ id: keyId }, { status: 'revoked', revokedAt: new Date() });
    await this.credentialChanges.announce({ kind: 'key', id: keyId });
  }
}
