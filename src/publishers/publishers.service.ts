import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { generateApiKey } from './api-key-material';
import { AppConfig } from '@/config/app-config';
import { newId } from '@/database/columns';
import { ApiKeyResolver } from './api-key-resolver.service';
import { ApiKeysRepository } from './api-keys.repository';
import { CredentialChanges } from './credential-changes.service';
import { AiModel, ModelDeactivator, ModelStatus } from './entities/ai-model.entity';
import { ApiKey, type ApiKeyKind } from './entities/api-key.entity';
import { Publisher, PublisherRole } from './entities/publisher.entity';
import { controlColumns, DEFAULT_CONTROLS, type ModelControls } from './model-controls';
import { ModelsRepository } from './models.repository';
import { PublishersRepository } from './publishers.repository';

export interface NewPublisher {
  email: string;
  name: string;
  passwordHash?: string | null;
  role?: PublisherRole;
  revenueSharePpm?: number;
  /** Accounts whose address needs no proof (the demo account, the bootstrap operator). */
  emailVerified?: boolean;
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
    private readonly publishers: PublishersRepository,
    private readonly models: ModelsRepository,
    private readonly keys: ApiKeysRepository,
    private readonly resolver: ApiKeyResolver,
    private readonly credentialChanges: CredentialChanges,
    private readonly config: AppConfig,
  ) {}

  async createPublisher(input: NewPublisher): Promise<Publisher> {
    const now = new Date();
    return this.publishers.insert({
      id: newId(),
      email: input.email.trim().toLowerCase(),
      name: input.name,
      passwordHash: input.passwordHash ?? null,
      role: input.role ?? 'publisher',
      status: 'active',
      revenueSharePpm: input.revenueSharePpm ?? this.config.defaultRevenueSharePpm,
      emailVerifiedAt: input.emailVerified ? now : null,
      createdAt: now,
      updatedAt: now,
    });
  }

  findPublisher(id: string): Promise<Publisher | null> {
    return this.publishers.findById(id);
  }

  findPublisherByEmail(email: string): Promise<Publisher | null> {
    return this.publishers.findByEmail(email.trim().toLowerCase());
  }

  async setPasswordHash(publisherId: string, passwordHash: string): Promise<void> {
    await this.publishers.setPasswordHash(publisherId, passwordHash, new Date());
  }

  /** Marks the address verified, keeping the first time it was. */
  async markEmailVerified(publisherId: string, at: Date): Promise<void> {
    await this.publishers.markEmailVerified(publisherId, at);
  }

  /** Publisher accounts only: operators share the table but publish nothing. */
  countPublishers(): Promise<number> {
    return this.publishers.countPublishers();
  }

  async createModel(publisherId: string, input: NewModel): Promise<AiModel> {
    const now = new Date();
    return this.models.insert({
      id: newId(),
      publisherId,
      name: input.name,
      description: input.description ?? null,
      link: input.link ?? null,
      status: 'active',
      deactivatedBy: null,
      ...controlColumns(DEFAULT_CONTROLS),
      createdAt: now,
      updatedAt: now,
    });
  }

  /** A model of this publisher, or null for an unknown id or another publisher's model. */
  findOwnedModel(publisherId: string, modelId: string): Promise<AiModel | null> {
    return this.models.findOwned(publisherId, modelId);
  }

  /** Changes a model's status; its keys answer accordingly at once, on every instance. */
  async setModelStatus(
    modelId: string,
    status: ModelStatus,
    by: ModelDeactivator = 'publisher',
  ): Promise<void> {
    const deactivatedBy = status === 'deactivated' ? by : null;
    await this.models.setStatus(modelId, status, deactivatedBy, new Date());
    await this.credentialChanges.announce({ kind: 'model', id: modelId });
  }

  /**
   * Replaces a model's controls; the next fetch-ads call with any of its keys applies them,
   * on every instance (its cached credentials are dropped, as for a status change).
   */
  async setModelControls(modelId: string, controls: ModelControls): Promise<void> {
    await this.models.setControls(modelId, controlColumns(controls), new Date());
    await this.credentialChanges.announce({ kind: 'model', id: modelId });
  }

  /**
   * Creates a key, live unless `kind` says test; the secret is returned here once and never
   * stored. Pass the manager of a transaction (from ApiKeysRepository.transaction) to create
   * it inside that transaction.
   */
  async createApiKey(
    modelId: string,
    label: string | null = null,
    manager?: EntityManager,
    kind: ApiKeyKind = 'live',
  ): Promise<{ key: ApiKey; secret: string }> {
    const material = generateApiKey(kind);
    const key = await this.keys.insert(
      {
        id: newId(),
        modelId,
        prefix: material.prefix,
        keyHash: material.hash,
        label,
        status: 'active',
        kind,
        createdAt: new Date(),
        revokedAt: null,
        lastUsedAt: null,
      },
      manager,
    );
    this.resolver.forgetUnknown();
    return { key, secret: material.secret };
  }

  async revokeApiKey(keyId: string): Promise<void> {
    await this.keys.revoke(keyId, new Date());
    await this.credentialChanges.announce({ kind: 'key', id: keyId });
  }
}
