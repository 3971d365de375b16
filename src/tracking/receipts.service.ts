import { Injectable } from '@nestjs/common';
import { CampaignsService } from '@/campaigns/campaigns/campaigns.service';
import { ProblemException } from '@/common/problem';
import { ReceiptDto } from './dto/receipt.dto';
import { explanationOf } from './explanation/stored-explanation';
import { ImpressionsRepository } from './impressions.repository';
import { ReceiptSigner } from './explanation/receipt-signer';

/** Operators' look-up of an ad's receipt: the impression it names and why it was shown. */
@Injectable()
export class ReceiptsService {
  constructor(
    private readonly signer: ReceiptSigner,
    private readonly impressions: ImpressionsRepository,
    private readonly campaigns: CampaignsService,
  ) {}

  async lookUp(receipt: string): Promise<ReceiptDto> {
    const impressionId = this.signer.verify(receipt);
    // A receipt this service did not issue, and one whose impression retention purged,
    // answer alike: there is nothing to show for either.
    const impression = impressionId === null ? null : await this.impressions.findById(impressionId);
    if (impression === null) {
      throw ProblemException.notFound(
        'receipt_not_found',
        'No served ad has this receipt: it is mistyped, or past retention.',
      );
    }
    const campaign = await this.campaigns.findById(impression.campaignId);
    return {
      receipt,
      impression_id: impression.id,
      campaign_id: impression.campaignId,
      campaign_name: campaign?.name ?? null,
      model_id: impression.modelId,
      publisher_id: impression.publisherId,
      served_at: impression.createdAt.toISOString(),
      test: impression.test,
      explanation: explanationOf(impression),
    };
  }
}
