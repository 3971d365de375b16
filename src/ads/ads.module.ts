import { Module } from '@nestjs/common';
import { CampaignIndexModule } from '@/campaign-index/campaign-index.module';
import { CampaignsModule } from '@/campaigns/campaigns.module';
import { EarningsModule } from '@/earnings/earnings.module';
import { PublishersModule } from '@/publishers/publishers.module';
import { SafetyModule } from '@/safety/safety.module';
import { TrackingModule } from '@/tracking/tracking.module';
import { AdsController } from './ads.controller';
import { AdsService } from './ads.service';
import { CampaignTryController } from './campaign-try.controller';
import { CampaignTryService } from './campaign-try.service';
import { FrequencyCapService } from './frequency-cap.service';

@Module({
  imports: [
    CampaignIndexModule,
    CampaignsModule,
    TrackingModule,
    PublishersModule,
    SafetyModule,
    EarningsModule,
  ],
  controllers: [AdsController, CampaignTryController],
  providers: [AdsService, CampaignTryService, FrequencyCapService],
})
export class AdsModule {}
