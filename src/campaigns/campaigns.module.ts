import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ReportsModule } from '@/earnings/reports.module';
import { AdvertiserManagementService } from './advertiser-management.service';
import { AdvertisersController } from './advertisers.controller';
import { AdvertisersRepository } from './advertisers.repository';
import { AdvertisersService } from './advertisers.service';
import { CampaignBillingService } from './campaign-billing.service';
import { CampaignChangeNotifier } from './campaign-change-notifier.service';
import { CampaignManagementService } from './campaign-management.service';
import { CampaignsController } from './campaigns.controller';
import { CampaignsRepository } from './campaigns.repository';
import { CampaignsService } from './campaigns.service';
import { ServableCampaignsReader } from './servable-campaigns.reader';
import { Advertiser } from './entities/advertiser.entity';
import { CampaignAuditEntry } from './entities/campaign-audit-entry.entity';
import { Campaign } from './entities/campaign.entity';
import { ServabilityVersion } from './entities/servability-version.entity';
import { ServabilityRepository } from './servability.repository';
import { ShownAdvertisersController } from './shown-advertisers.controller';
import { ShownAdvertisersService } from './shown-advertisers.service';

@Module({
  imports: [
    TypeOrmModule.forFeature([Advertiser, Campaign, CampaignAuditEntry, ServabilityVersion]),
    ReportsModule,
  ],
  controllers: [AdvertisersController, CampaignsController, ShownAdvertisersController],
  providers: [
    CampaignsService,
    AdvertisersService,
    AdvertiserManagementService,
    ShownAdvertisersService,
    CampaignChangeNotifier,
    CampaignManagementService,
    ServableCampaignsReader,
    CampaignsRepository,
    AdvertisersRepository,
    ServabilityRepository,
    CampaignBillingService,
  ],
  exports: [
    CampaignsService,
    AdvertisersService,
    CampaignChangeNotifier,
    ServableCampaignsReader,
    CampaignBillingService,
  ],
})
export class CampaignsModule {}
