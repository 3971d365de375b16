import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CampaignsModule } from '@/campaigns/campaigns.module';
import { EarningsModule } from '@/earnings/earnings.module';
import { TrackingModule } from '@/tracking/tracking.module';
import { AdvertiserKeyGuard } from './advertiser-key.guard';
import { AdvertiserKeysController } from './advertiser-keys.controller';
import { AdvertiserKeysRepository } from './advertiser-keys.repository';
import { AdvertiserKeysService } from './advertiser-keys.service';
import { ConversionsController } from './conversions.controller';
import { ConversionsRepository } from './conversions.repository';
import { ConversionsService } from './conversions.service';
import { AdvertiserApiKey } from './entities/advertiser-api-key.entity';
import { Conversion } from './entities/conversion.entity';
import { PixelService } from './pixel.service';

/**
 * Conversions: advertisers' keys, the conversions they report (server to server or by
 * pixel) against their clicks. Nothing imports it but the composition root.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([AdvertiserApiKey, Conversion]),
    CampaignsModule,
    EarningsModule,
    TrackingModule,
  ],
  controllers: [AdvertiserKeysController, ConversionsController],
  providers: [
    AdvertiserKeysService,
    AdvertiserKeysRepository,
    AdvertiserKeyGuard,
    ConversionsService,
    ConversionsRepository,
    PixelService,
  ],
})
export class ConversionsModule {}
