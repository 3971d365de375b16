import { Injectable } from '@nestjs/common';
import { CampaignsService } from '@/campaigns/campaigns.service';
import { ProblemException } from '@/common/problem';
import { newId } from '@/database/columns';
import { ClickLinkSigner } from './click-link';
import { ClickRecorder } from './click-recorder.service';
import { ClickQueryDto } from './dto/click-query.dto';

/** Follows of tracking links: finds where to send the person and has the click recorded. */
@Injectable()
export class ClickService {
  constructor(
    private readonly campaigns: CampaignsService,
    private readonly recorder: ClickRecorder,
    private readonly signer: ClickLinkSigner,
  ) {}

  /**
   * Records the click (committed before this resolves) and returns where to send the
   * person: always the campaign's own target URL, whatever `targetLink` says, so the
   * endpoint is never an open redirect.
   */
  async follow(query: ClickQueryDto, userAgent: string | undefined): Promise<string> {
    // A served campaign is known from memory; only a click on one the index dropped
    // (paused, spent, ended) reads the database.
    const campaign =
      this.campaigns.served(query.campaign_id) ??
      (await this.campaigns.findById(query.campaign_id));
    if (!campaign) {
      throw ProblemException.notFound('campaign_not_found', 'No campaign has this campaign_id.');
    }
    const signed =
      !!query.imp &&
      !!query.sig &&
      this.signer.verify(
        { campaignId: campaign.id, modelId: query.model_id, impressionId: query.imp },
        query.sig,
      );
    await this.recorder.record({
      clickId: newId(),
      at: new Date(),
      campaignId: campaign.id,
      modelId: query.model_id,
      impressionId: signed ? query.imp! : null,
      userAgent: userAgent ?? null,
    });
    return campaign.targetUrl;
  }
}
