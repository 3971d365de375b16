import { Module } from '@nestjs/common';
import { CampaignsModule } from '@/campaigns/campaigns.module';
import { CampaignIndexService } from './campaign-index.service';

/**
 * The live, in-memory index of servable campaigns. Its own module because two modules read
 * it: ads matches requests against it, and tracking redirects clicks from it and asks it
 * whether a campaign is still served (docs/architecture.md).
 */
@Module({
  imports: [CampaignsModule],
  providers: [CampaignIndexService],
  exports: [CampaignIndexService],
})
export class CampaignIndexModule {}
