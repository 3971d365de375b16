import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ApiProblemResponses } from '@/common/api-problem-responses.decorator';
import { Authenticated, CurrentPrincipal } from '@/common/authenticated.decorator';
import type { Principal } from '@/common/principal';
import { ApiReportResponse, replyWithReport } from '@/reports/reports-response';
import { CreatePayoutDto, VoidPayoutDto } from './dto/payout-input.dto';
import {
  PayoutDto,
  PayoutListDto,
  PayoutsDueDto,
  PayoutsDueQueryDto,
  PublisherBalancesDto,
} from './dto/payout.dto';
import { balancesCsv, payoutsDueCsv, requestedFormat } from './payouts-csv';
import { PayoutsService } from './payouts.service';

/** Operators' routes over publishers' payouts; a publisher gets 403. */
@ApiTags('admin')
@Controller('api/admin')
@Authenticated({ role: 'admin' })
export class PayoutsAdminController {
  constructor(private readonly payouts: PayoutsService) {}

  @Post('publishers/:id/payouts')
  @ApiOperation({
    summary: 'Operators: record a payout to a publisher',
    description:
      "Never more than the publisher's unpaid balance (`409 payout_exceeds_balance`). Idempotent by `reference`: the same payout sent again answers `200` with the stored one; other fields under a reference already used answer `409 payout_reference_conflict`.",
  })
  @ApiParam({ name: 'id', description: 'Id of the publisher.' })
  @ApiCreatedResponse({ type: PayoutDto, description: 'Recorded.' })
  @ApiOkResponse({ type: PayoutDto, description: 'Already recorded with this reference.' })
  @ApiProblemResponses({
    400: ['validation_failed', 'malformed_json'],
    404: ['publisher_not_found'],
    409: ['payout_exceeds_balance', 'payout_reference_conflict'],
  })
  async createPayout(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Body() body: CreatePayoutDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<PayoutDto> {
    const { payout, created } = await this.payouts.create(principal.publisherId, id, body);
    if (!created) void reply.status(200);
    return payout;
  }

  @Get('publishers/:id/payouts')
  @ApiOperation({
    summary: "Operators: a publisher's payouts, newest first",
    description: 'Voided payouts included.',
  })
  @ApiParam({ name: 'id', description: 'Id of the publisher.' })
  @ApiOkResponse({ type: PayoutListDto })
  @ApiProblemResponses({ 404: ['publisher_not_found'] })
  listPublisherPayouts(@Param('id') id: string): Promise<PayoutListDto> {
    return this.payouts.list(id);
  }

  @Post('payouts/:id/void')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Operators: void a payout',
    description:
      'Its amount returns to the unpaid balance. A payout is never edited otherwise; voiding it again answers it unchanged.',
  })
  @ApiParam({ name: 'id', description: 'Id of the payout.' })
  @ApiOkResponse({ type: PayoutDto })
  @ApiProblemResponses({
    400: ['validation_failed', 'malformed_json'],
    404: ['payout_not_found'],
  })
  voidPayout(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Body() body: VoidPayoutDto,
  ): Promise<PayoutDto> {
    return this.payouts.void(principal.publisherId, id, body.reason);
  }

  @Get('reports/payouts-due')
  @ApiOperation({
    summary: 'Operators: publishers due a payout',
    description:
      'Publishers whose unpaid balance reaches the payout threshold (`PAYOUT_THRESHOLD`), largest first. `format=csv` or `Accept: text/csv` downloads it as CSV.',
  })
  @ApiReportResponse(
    PayoutsDueDto,
    'publisher_id,email,name,unpaid_balance,earned_total,paid_total,last_payout_at\r\n',
  )
  @ApiProblemResponses({ 400: ['validation_failed'] })
  async getPayoutsDue(
    @Query() query: PayoutsDueQueryDto,
    @Headers('accept') accept: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<PayoutsDueDto | string> {
    return replyWithReport(
      reply,
      requestedFormat(query.format, accept),
      await this.payouts.due(),
      payoutsDueCsv,
    );
  }

  @Get('reports/balances')
  @ApiOperation({
    summary: "Operators: every publisher's unpaid balance",
    description:
      'Every publisher account with its earnings, payouts, unpaid balance and whether it reaches the payout threshold (`PAYOUT_THRESHOLD`), largest balance first. `format=csv` or `Accept: text/csv` downloads it as CSV.',
  })
  @ApiReportResponse(
    PublisherBalancesDto,
    'publisher_id,email,name,earned_total,paid_total,unpaid_balance,due,last_payout_at\r\n',
  )
  @ApiProblemResponses({ 400: ['validation_failed'] })
  async getPublisherBalances(
    @Query() query: PayoutsDueQueryDto,
    @Headers('accept') accept: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<PublisherBalancesDto | string> {
    return replyWithReport(
      reply,
      requestedFormat(query.format, accept),
      await this.payouts.balances(),
      balancesCsv,
    );
  }
}
