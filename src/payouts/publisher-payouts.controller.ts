import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal } from '@/common/authenticated.decorator';
import type { Principal } from '@/common/principal';
import { BalanceDto, PayoutListDto } from './dto/payout.dto';
import { PayoutsService } from './payouts.service';

/** The signed-in publisher's balance and payouts. */
@ApiTags('publisher')
@Controller('api/publisher')
@Authenticated()
export class PublisherPayoutsController {
  constructor(private readonly payouts: PayoutsService) {}

  @Get('balance')
  @ApiOperation({
    summary: "The signed-in publisher's earnings, payouts and unpaid balance",
    description:
      'Everything earned from billed clicks (the ledger), the payouts not voided, the difference still unpaid, and whether it reaches the payout threshold (`due`).',
  })
  @ApiOkResponse({ type: BalanceDto })
  getBalance(@CurrentPrincipal() principal: Principal): Promise<BalanceDto> {
    return this.payouts.balance(principal.publisherId);
  }

  @Get('payouts')
  @ApiOperation({
    summary: "The signed-in publisher's payouts, newest first",
    description: 'Voided payouts included, with `status: voided` and the reason.',
  })
  @ApiOkResponse({ type: PayoutListDto })
  listOwnPayouts(@CurrentPrincipal() principal: Principal): Promise<PayoutListDto> {
    return this.payouts.list(principal.publisherId);
  }
}
