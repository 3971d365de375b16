import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { microsToUnits } from '@/common/money';
import { REPORT_FORMATS, type ReportFormat } from '@/reports/dto/reports.dto';
import { PAYOUT_METHODS, type Payout, type PayoutMethod } from '../entities/payout.entity';

/** The one currency of balances and payouts. */
export const PAYOUT_CURRENCY = 'USD';

export const PAYOUT_STATUSES = ['paid', 'voided'] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

export class PayoutDto {
  @ApiProperty({ format: 'uuid', example: '019a8a3e-5b1c-7cc1-9d0e-3f2a1b4c5d6e' }) id: string;
  @ApiProperty({ format: 'uuid', example: '019a8a3e-5b1c-7cc1-9d0e-3f2a1b4c5d6f' })
  publisher_id: string;
  @ApiProperty({ description: 'In currency units.', example: 125.5 }) amount: number;
  @ApiProperty({ enum: [PAYOUT_CURRENCY] }) currency: typeof PAYOUT_CURRENCY;
  @ApiProperty({ format: 'date', example: '2026-11-01' }) period_start: string;
  @ApiProperty({ format: 'date', example: '2026-11-30' }) period_end: string;
  @ApiProperty({ enum: PAYOUT_METHODS }) method: PayoutMethod;
  @ApiProperty({ example: 'SEPA-2026-11-0042' }) reference: string;
  @ApiProperty({
    enum: PAYOUT_STATUSES,
    description: '`voided`: cancelled, its amount back in the unpaid balance.',
  })
  status: PayoutStatus;
  @ApiProperty({ format: 'date-time', example: '2026-12-02T09:30:00.000Z' }) created_at: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: null })
  voided_at: string | null;
  @ApiProperty({ type: String, nullable: true, example: null }) void_reason: string | null;
}

export class PayoutListDto {
  @ApiProperty({ type: [PayoutDto], description: 'Newest first, voided ones included.' })
  payouts: PayoutDto[];
}

export class BalanceDto {
  @ApiProperty({ enum: [PAYOUT_CURRENCY] }) currency: typeof PAYOUT_CURRENCY;
  @ApiProperty({ description: 'Everything earned from billed clicks, in units.', example: 180.25 })
  earned_total: number;
  @ApiProperty({ description: 'Payouts not voided, in units.', example: 125.5 })
  paid_total: number;
  @ApiProperty({ description: 'earned_total − paid_total.', example: 54.75 })
  unpaid_balance: number;
  @ApiProperty({ description: 'Balance from which a payout is due, in units.', example: 50 })
  payout_threshold: number;
  @ApiProperty({ description: "The publisher's share of each billed click.", example: 0.7 })
  revenue_share: number;
  @ApiProperty({ description: 'unpaid_balance ≥ payout_threshold.' }) due: boolean;
}

export class PayoutDueRowDto {
  @ApiProperty({ format: 'uuid' }) publisher_id: string;
  @ApiProperty({ example: 'ada@example.com' }) email: string;
  @ApiProperty({ example: 'Ada Publishing' }) name: string;
  @ApiProperty({ example: 54.75 }) unpaid_balance: number;
  @ApiProperty({ example: 180.25 }) earned_total: number;
  @ApiProperty({ example: 125.5 }) paid_total: number;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When the last payout not voided was recorded; null: never paid.',
  })
  last_payout_at: string | null;
}

export class PayoutsDueDto {
  @ApiProperty({ enum: [PAYOUT_CURRENCY] }) currency: typeof PAYOUT_CURRENCY;
  @ApiProperty({ example: 50 }) payout_threshold: number;
  @ApiProperty({
    type: [PayoutDueRowDto],
    description: 'Publishers whose unpaid balance reaches the threshold, largest first.',
  })
  publishers: PayoutDueRowDto[];
}

export class PublisherBalanceRowDto {
  @ApiProperty({ format: 'uuid' }) publisher_id: string;
  @ApiProperty({ example: 'ada@example.com' }) email: string;
  @ApiProperty({ example: 'Ada Publishing' }) name: string;
  @ApiProperty({ description: 'Everything earned from billed clicks, in units.', example: 180.25 })
  earned_total: number;
  @ApiProperty({ description: 'Payouts not voided, in units.', example: 125.5 })
  paid_total: number;
  @ApiProperty({ description: 'earned_total − paid_total.', example: 54.75 })
  unpaid_balance: number;
  @ApiProperty({ description: 'unpaid_balance ≥ payout_threshold.' }) due: boolean;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When the last payout not voided was recorded; null: never paid.',
  })
  last_payout_at: string | null;
}

export class PublisherBalancesDto {
  @ApiProperty({ enum: [PAYOUT_CURRENCY] }) currency: typeof PAYOUT_CURRENCY;
  @ApiProperty({ example: 50 }) payout_threshold: number;
  @ApiProperty({
    type: [PublisherBalanceRowDto],
    description: 'Every publisher account (not operators), largest unpaid balance first.',
  })
  publishers: PublisherBalanceRowDto[];
}

export class PayoutsDueQueryDto {
  @ApiPropertyOptional({
    enum: REPORT_FORMATS,
    default: 'json',
    description: '`csv` answers `text/csv` (as does `Accept: text/csv`).',
  })
  @IsOptional()
  @IsIn(REPORT_FORMATS)
  format?: ReportFormat;
}

/** The fields a client may see of a payout, listed one by one (never the entity). */
export function toPayoutDto(payout: Payout): PayoutDto {
  return {
    id: payout.id,
    publisher_id: payout.publisherId,
    amount: microsToUnits(payout.amountMicros),
    currency: PAYOUT_CURRENCY,
    period_start: payout.periodStart,
    period_end: payout.periodEnd,
    method: payout.method,
    reference: payout.reference,
    status: payout.voidedAt ? 'voided' : 'paid',
    created_at: payout.createdAt.toISOString(),
    voided_at: payout.voidedAt?.toISOString() ?? null,
    void_reason: payout.voidReason,
  };
}
