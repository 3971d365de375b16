import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiKeyResolver } from './api-key-resolver.service';
import { ApiKeysController } from './api-keys.controller';
import { ApiKeysRepository } from './api-keys.repository';
import { ApiKeysService } from './api-keys.service';
import { CredentialChanges } from './credential-changes.service';
import { AiModel } from './entities/ai-model.entity';
import { ApiKey } from './entities/api-key.entity';
import { PublisherAuditEntry } from './entities/publisher-audit-entry.entity';
import { Publisher } from './entities/publisher.entity';
import { KeyUsageTracker } from './key-usage-tracker.service';
import { ModelsController } from './models.controller';
import { ModelsRepository } from './models.repository';
import { ModelsService } from './models.service';
import { PublisherController } from './publisher.controller';
import { PublisherAccountsService } from './publisher-accounts.service';
import { PublishersAdminController } from './publishers-admin.controller';
import { PublishersRepository } from './publishers.repository';
import { PublishersService } from './publishers.service';

@Module({
  imports: [TypeOrmModule.forFeature([Publisher, PublisherAuditEntry, AiModel, ApiKey])],
  controllers: [
    PublisherController,
    ModelsController,
    ApiKeysController,
    PublishersAdminController,
  ],
  providers: [
    PublishersService,
    ApiKeyResolver,
    CredentialChanges,
    KeyUsageTracker,
    ModelsService,
    ApiKeysService,
    PublisherAccountsService,
    ApiKeysRepository,
    ModelsRepository,
    PublishersRepository,
  ],
  // ApiKeyGuard's own dependencies: a route guarded by it in another module (fetch-ads)
  // instantiates the guard there, from these.
  exports: [PublishersService, ApiKeyResolver, KeyUsageTracker],
})
export class PublishersModule {}
