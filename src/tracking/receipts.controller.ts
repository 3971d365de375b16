import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiProblemResponses } from '@/common/api-problem-responses.decorator';
import { Authenticated } from '@/common/authenticated.decorator';
import { ReceiptDto } from './dto/receipt.dto';
import { ReceiptsService } from './receipts.service';

/** Operators' look-up of the receipt every served ad carries; a publisher gets 403. */
@ApiTags('admin')
@Controller('api/admin/receipts')
@Authenticated({ role: 'admin' })
export class ReceiptsController {
  constructor(private readonly receipts: ReceiptsService) {}

  @Get(':receipt')
  @ApiOperation({
    summary: 'Why an ad was shown: look up its receipt (operators)',
    description:
      'Every ad fetch-ads serves carries a `receipt`; a publisher can pass it on to a user who asks "why am I seeing this?". This answers the impression it names (campaign, model, publisher, when) and the explanation recorded when the ad was served — the same as fetch-ads\' `explanation` with `explain: true`, even after the campaign\'s keywords, targeting or bid changed. A receipt that is malformed, whose signature fails, or whose impression retention has purged answers 404 `receipt_not_found`.',
  })
  @ApiParam({
    name: 'receipt',
    description: "The ad's `receipt`: `<impression id>.<signature>`.",
    example: '019a8a3e-5b1c-7cc1-9d0e-3f2a1b4c5d6e.Xp2c0vQm1LzA',
  })
  @ApiOkResponse({ type: ReceiptDto })
  @ApiProblemResponses({ 404: ['receipt_not_found'] })
  getReceipt(@Param('receipt') receipt: string): Promise<ReceiptDto> {
    return this.receipts.lookUp(receipt);
  }
}
