import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiKeyResolver } from './api-key-resolver.service';
import { ApiKeysService } from './api-keys.service';
import { CredentialChanges } from './credential-changes.service';
import { AiModel } from './entities/ai-model.entity';
import { ApiKey } from './entities/api-key.entity';
import { Publisher } from './entities/publisher.entity';
import { KeyUsageTracker } from './key-usage-tracker.service';
import { ModelsService } from './models.service';
import { PublisherAccountsService } from './publisher-accounts.service';
import { PublishersService } from './publishers.service';

@Module({
  imports: [TypeOrmModule.forFeature([Publisher, AiModel, ApiKey])],
  providers: [
    PublishersService,
    ApiKeyResolver,
    CredentialChanges,
    KeyUsageTracker,
    ModelsService,
    ApiKeysService,
    PublisherAccountsService,
  ],
  exports: [
    PublishersService,
    ApiKeyResolver,
    KeyUsageTracker,
    ModelsService,
    ApiKeysService,
    PublisherAccountsService,
  ],
})
export class PublishersModule {}
