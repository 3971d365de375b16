import { Injectable, Logger } from '@nestjs/common';
import { CampaignPixels } from '@/campaigns/campaigns/campaign-pixel';
import { CampaignsService } from '@/campaigns/campaigns/campaigns.service';
import { ConversionsService } from './conversions.service';
import { PIXEL_GIF, pixelScript } from './pixel-script';

/** What a browser on the advertiser's site loads: the pixel GIF and its script. */
@Injectable()
export class PixelService {
  private readonly logger = new Logger(PixelService.name);

  constructor(
    private readonly conversions: ConversionsService,
    private readonly campaigns: CampaignsService,
    private readonly pixels: CampaignPixels,
  ) {}

  /** Always the GIF: a failure is logged, never shown to the advertiser's visitor. */
  async gif(query: Record<string, unknown>): Promise<Buffer> {
    try {
      await this.conversions.fromPixel(query);
    } catch (error) {
      this.logger.error(`pixel conversion not recorded: ${String(error)}`);
    }
    return PIXEL_GIF;
  }

  async script(token: unknown): Promise<string> {
    const campaignId = this.pixels.campaignOf(token);
    const campaign = campaignId ? await this.campaigns.findById(campaignId) : null;
    if (!campaign) return 'window.adline = window.adline || { convert: function () {} };\n';
    return pixelScript(this.pixels.urls(campaign.id).gif_url, campaign.clickIdParam);
  }
}
