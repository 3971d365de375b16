import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CampaignIndexModule } from '@/campaign-index/campaign-index.module';
import { CampaignsModule } from '@/campaigns/campaigns.module';
import { AppConfig } from '@/config/app-config';
import { EarningsModule } from '@/earnings/earnings.module';
import { AdViewLinks } from './ad-view-link';
import { AdViewsController } from './ad-views.controller';
import { AdViewsService } from './ad-views.service';
import { ClickAttributions } from './click-attributions.service';
import { ClickIdSigner } from './click-id';
import { ClickLinkSigner } from './click-link';
import { ClickRecorder } from './click-recorder.service';
import { ClickController } from './click.controller';
import { ClickService } from './click.service';
import { ClickTrafficRepository } from './click-traffic.repository';
import { ClicksRepository } from './clicks.repository';
import { Click } from './entities/click.entity';
import { Impression } from './entities/impression.entity';
import { ImpressionWriter } from './impression-writer.service';
import { ImpressionsRepository } from './impressions.repository';
import { AdExplanations } from './explanation/ad-explanations.service';
import { ReceiptSigner } from './explanation/receipt-signer';
import { ReceiptsController } from './receipts.controller';
import { ReceiptsService } from './receipts.service';
import { RetentionRepository } from './retention.repository';
import { RetentionService } from './retention.service';
import { ServedAds } from './served-ads.service';

@Module({
  imports: [
    TypeOrmModule.forFeature([Impression, Click]),
    CampaignsModule,
    CampaignIndexModule,
    EarningsModule,
  ],
  controllers: [ClickController, AdViewsController, ReceiptsController],
  providers: [
    ClickService,
    ClickAttributions,
    ClickRecorder,
    ClickTrafficRepository,
    ClicksRepository,
    ImpressionWriter,
    ImpressionsRepository,
    RetentionService,
    RetentionRepository,
    ReceiptsService,
    AdExplanations,
    ServedAds,
    AdViewsService,
    {
      provide: AdViewLinks,
      inject: [AppConfig],
      useFactory: (config: AppConfig) => new AdViewLinks(config.clickSigningSecret, config.baseUrl),
    },
    {
      provide: ReceiptSigner,
      inject: [AppConfig],
      useFactory: (config: AppConfig) => new ReceiptSigner(config.clickSigningSecret),
    },
    {
      provide: ClickIdSigner,
      inject: [AppConfig],
      useFactory: (config: AppConfig) => new ClickIdSigner(config.clickSigningSecret),
    },
    {
      provide: ClickLinkSigner,
      inject: [AppConfig],
      useFactory: (config: AppConfig) => new ClickLinkSigner(config.clickSigningSecret),
    },
  ],
  // ClickRecorder and ImpressionWriter for the graceful shutdown, which flushes them.
  exports: [
    ImpressionWriter,
    ClickRecorder,
    ClickLinkSigner,
    AdViewLinks,
    ServedAds,
    ClickAttributions,
  ],
})
export class TrackingModule {}
