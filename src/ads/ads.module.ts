import { Module } from '@nestjs/common';
import { CampaignsModule } from '@/campaigns/campaigns.module';
import { PublishersModule } from '@/publishers/publishers.module';
import { TrackingModule } from '@/tracking/tracking.module';
import { AdsController } from './ads.controller';
import { AdsService } from './ads.service';
import { CampaignIndexService } from './campaign-index.service';

@Module({
  imports: [CampaignsModule, TrackingModule, PublishersModule],
  controllers: [AdsController],
  providers: [AdsService, CampaignIndexService],
  exports: [CampaignIndexService],
})
export class AdsModule {}
