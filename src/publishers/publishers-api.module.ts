import { Module } from '@nestjs/common';
import { AuthModule } from '@/auth/auth.module';
import { ApiKeysController } from './api-keys.controller';
import { ModelsController } from './models.controller';
import { PublisherController } from './publisher.controller';
import { PublishersAdminController } from './publishers-admin.controller';
import { PublishersModule } from './publishers.module';

/**
 * The management API over publishers, models and keys. Apart from PublishersModule because
 * its session guard comes from AuthModule, which itself needs PublishersModule.
 */
@Module({
  imports: [AuthModule, PublishersModule],
  controllers: [
    PublisherController,
    ModelsController,
    ApiKeysController,
    PublishersAdminController,
  ],
})
export class PublishersApiModule {}
