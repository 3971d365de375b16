import { HttpStatus, Injectable } from '@nestjs/common';
import { Clock } from '@/common/clock';
import { microsToUnits, ppmToShare, unitsToMicros } from '@/common/money';
import { ProblemException } from '@/common/problem';
import { AppConfig } from '@/config/app-config';
import { newId } from '@/database/columns';
import { PublishersService } from '@/publishers/publishers.service';
import type { CreatePayoutDto } from './dto/payout-input.dto';
import {
  BalanceDto,
  PAYOUT_CURRENCY,
  type PayoutDueRowDto,
  PayoutDto,
  PayoutListDto,
  PayoutsDueDto,
  PublisherBalancesDto,
  toPayoutDto,
} from './dto/payout.dto';
import type { Payout } from './entities/payout.entity';
import { type DueRow, PayoutsRepository } from './payouts.repository';

/**
 * Publishers' balances and the payouts operators record against them. The unpaid balance is
 * the ledger's publisher earnings minus the payouts not voided; a payout never exceeds it.
 */
@Injectable()
export class PayoutsService {
  constructor(
    private readonly payouts: PayoutsRepository,
    private readonly publishers: PublishersService,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  async balance(publisherId: string): Promise<BalanceDto> {
    const publisher = await this.publishers.findPublisher(publisherId);
    if (!publisher) throw publisherNotFound();
    const [earned, paid] = await Promise.all([
      this.payouts.earnedMicros(publisherId),
      this.payouts.paidMicros(publisherId),
    ]);
    const unpaid = earned - paid;
    return {
      currency: PAYOUT_CURRENCY,
      earned_total: microsToUnits(earned),
      paid_total: microsToUnits(paid),
      unpaid_balance: microsToUnits(unpaid),
      payout_threshold: microsToUnits(this.config.payoutThresholdMicros),
      revenue_share: ppmToShare(publisher.revenueSharePpm),
      due: unpaid >= this.config.payoutThresholdMicros,
    };
  }

  /** A publisher's own payouts, or an operator's view of any publisher's (404 if unknown). */
  async list(publisherId: string): Promise<PayoutListDto> {
    if (!(await this.publishers.findPublisher(publisherId))) throw publisherNotFound();
    return { payouts: (await this.payouts.listNewestFirst(publisherId)).map(toPayoutDto) };
  }

  /**
   * Records a payout, decided with the publisher's row locked (MySQL) and checked against the
   * balance in the statement that inserts it, so two operators paying at once cannot pay
   * the same money twice. Idempotent by `reference`: the same payout again answers the
   * stored one (`created: false`); other fields under the same reference are a conflict.
   */
  async create(
    operatorId: string,
    publisherId: string,
    input: CreatePayoutDto,
  ): Promise<{ payout: PayoutDto; created: boolean }> {
    const wanted: Payout = {
      id: newId(),
      publisherId,
      amountMicros: unitsToMicros(input.amount),
      periodStart: input.period_start,
      periodEnd: input.period_end,
      method: input.method,
      reference: input.reference,
      createdAt: this.clock.now(),
      createdBy: operatorId,
      voidedAt: null,
      voidedBy: null,
      voidReason: null,
    };
    try {
      return await this.payouts.transaction(async (manager) => {
        if (!(await this.payouts.lockPublisher(manager, publisherId))) throw publisherNotFound();
        const stored = await this.payouts.findByReference(publisherId, input.reference, manager);
        if (stored) return { payout: replayOf(stored, wanted), created: false };
        const earned = await this.payouts.earnedMicros(publisherId, manager);
        if (!(await this.payouts.insertIfCovered(manager, wanted, earned))) {
          const unpaid = earned - (await this.payouts.paidMicros(publisherId, manager));
          throw new ProblemException(
            HttpStatus.CONFLICT,
            'payout_exceeds_balance',
            `The payout of ${microsToUnits(wanted.amountMicros)} exceeds the unpaid balance of ${microsToUnits(unpaid)}.`,
          );
        }
        return { payout: toPayoutDto(wanted), created: true };
      });
    } catch (error) {
      if (error instanceof ProblemException) throw error;
      // Two requests with one reference at once: the unique index decides, the other answers
      // what the first stored.
      const stored = await this.payouts.findByReference(publisherId, input.reference);
      if (stored) return { payout: replayOf(stored, wanted), created: false };
      throw error;
    }
  }

  /** Voids a payout, returning its amount to the unpaid balance; a second void changes nothing. */
  async void(operatorId: string, payoutId: string, reason: string): Promise<PayoutDto> {
    const payout = await this.payouts.findById(payoutId);
    if (!payout) throw ProblemException.notFound('payout_not_found', 'No payout has this id.');
    if (payout.voidedAt) return toPayoutDto(payout);
    await this.payouts.voidOnce(payoutId, this.clock.now(), operatorId, reason);
    return toPayoutDto((await this.payouts.findById(payoutId))!);
  }

  /** Publishers whose unpaid balance reaches the payout threshold, largest first. */
  async due(): Promise<PayoutsDueDto> {
    const threshold = this.config.payoutThresholdMicros;
    const rows = await this.payouts.due(threshold);
    return {
      currency: PAYOUT_CURRENCY,
      payout_threshold: microsToUnits(threshold),
      publishers: rows.map(figuresOf),
    };
  }

  /** Every publisher account's balance, largest unpaid first, each marked due or not. */
  async balances(): Promise<PublisherBalancesDto> {
    const threshold = this.config.payoutThresholdMicros;
    const rows = await this.payouts.due(null);
    return {
      currency: PAYOUT_CURRENCY,
      payout_threshold: microsToUnits(threshold),
      publishers: rows.map((row) => ({
        ...figuresOf(row),
        due: row.earnedMicros - row.paidMicros >= threshold,
      })),
    };
  }
}

/** A publisher's earned, paid and unpaid figures, in units, as both reports answer them. */
function figuresOf(row: DueRow): PayoutDueRowDto {
  return {
    publisher_id: row.publisherId,
    email: row.email,
    name: row.name,
    unpaid_balance: microsToUnits(row.earnedMicros - row.paidMicros),
    earned_total: microsToUnits(row.earnedMicros),
    paid_total: microsToUnits(row.paidMicros),
    last_payout_at: row.lastPayoutAt?.toISOString() ?? null,
  };
}

const publisherNotFound = () =>
  ProblemException.notFound('publisher_not_found', 'No publisher has this id.');

/** The stored payout, when a repeat asks for the same one; else 409. */
function replayOf(stored: Payout, wanted: Payout): PayoutDto {
  const same =
    stored.amountMicros === wanted.amountMicros &&
    stored.periodStart === wanted.periodStart &&
    stored.periodEnd === wanted.periodEnd &&
    stored.method === wanted.method &&
    stored.reference === wanted.reference;
  if (!same) {
    throw new ProblemException(
      HttpStatus.CONFLICT,
      'payout_reference_conflict',
      'This publisher already has a payout with this reference, with other fields.',
    );
  }
  return toPayoutDto(stored);
}
