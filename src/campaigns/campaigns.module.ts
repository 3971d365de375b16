import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '@/config/app-config';
import { ReportsModule } from '@/reports/reports.module';
import { CampaignPixels } from './campaigns/campaign-pixel';
import { AdvertiserManagementService } from './advertisers/advertiser-management.service';
import { AdvertisersController } from './advertisers/advertisers.controller';
import { AdvertisersRepository } from './advertisers/advertisers.repository';
import { AdvertisersService } from './advertisers/advertisers.service';
import { CampaignBillingService } from './billing/campaign-billing.service';
import { CampaignChangeNotifier } from './change-notices/campaign-change-notifier.service';
import { CampaignManagementService } from './campaigns/campaign-management.service';
import { CampaignsController } from './campaigns/campaigns.controller';
import { CampaignsRepository } from './campaigns/campaigns.repository';
import { CampaignsService } from './campaigns/campaigns.service';
import { ServableCampaignsReader } from './campaigns/servable-campaigns.reader';
import { Advertiser } from './entities/advertiser.entity';
import { CampaignAuditEntry } from './entities/campaign-audit-entry.entity';
import { Campaign } from './entities/campaign.entity';
import { ServabilityVersion } from './entities/servability-version.entity';
import { ServabilityRepository } from './change-notices/servability.repository';
import { ShownAdvertisersController } from './advertisers/shown-advertisers.controller';
import { ShownAdvertisersService } from './advertisers/shown-advertisers.service';

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
    {
      provide: CampaignPixels,
      inject: [AppConfig],
      useFactory: (config: AppConfig) =>
        new CampaignPixels(config.clickSigningSecret, config.baseUrl),
    },
  ],
  exports: [
    CampaignPixels,
    CampaignsService,
    AdvertisersService,
    CampaignChangeNotifier,
    ServableCampaignsReader,
    CampaignBillingService,
  ],
})
export class CampaignsModule {}
