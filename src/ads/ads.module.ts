import { Module } from '@nestjs/common';
import { CampaignIndexModule } from '@/campaign-index/campaign-index.module';
import { EarningsModule } from '@/earnings/earnings.module';
import { PublishersModule } from '@/publishers/publishers.module';
import { SafetyModule } from '@/safety/safety.module';
import { TrackingModule } from '@/tracking/tracking.module';
import { AdsController } from './ads.controller';
import { AdsService } from './ads.service';
import { FrequencyCapService } from './frequency-cap.service';

@Module({
  imports: [CampaignIndexModule, TrackingModule, PublishersModule, SafetyModule, EarningsModule],
  controllers: [AdsController],
  providers: [AdsService, FrequencyCapService],
})
export class AdsModule {}
