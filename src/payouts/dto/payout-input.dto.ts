import { ApiProperty } from '@nestjs/swagger';
import { IsIn, ValidateBy } from 'class-validator';
import { hasAtMostSixDecimals, unitsToMicros } from '@/common/money';
import { IsIsoDay, IsRequired, IsText, MAX_MONEY_UNITS } from '@/common/validators';
import { PAYOUT_METHODS, type PayoutMethod } from '../entities/payout.entity';

/** A payout is paid in cents: an amount in units with at most two decimals. */
function IsPayoutAmount(): PropertyDecorator {
  return ValidateBy({
    name: 'isPayoutAmount',
    validator: {
      validate: (value: unknown) =>
        typeof value === 'number' &&
        Number.isFinite(value) &&
        value > 0 &&
        value <= MAX_MONEY_UNITS &&
        hasAtMostSixDecimals(value) &&
        unitsToMicros(value) % 10_000 === 0,
      defaultMessage: () =>
        `$property must be a number greater than 0 and at most ${MAX_MONEY_UNITS}, with at most 2 decimals`,
    },
  });
}

/** `period_end` is not before `period_start` (both `YYYY-MM-DD`, so text order is day order). */
function IsNotBeforePeriodStart(): PropertyDecorator {
  return ValidateBy({
    name: 'isNotBeforePeriodStart',
    validator: {
      validate: (value: unknown, args) => {
        const start = (args?.object as { period_start?: unknown }).period_start;
        return typeof value === 'string' && (typeof start !== 'string' || value >= start);
      },
      defaultMessage: () => '$property must not be before period_start',
    },
  });
}

export class CreatePayoutDto {
  @ApiProperty({
    description: 'Amount paid, in currency units, greater than 0 with at most 2 decimals.',
    example: 125.5,
  })
  @IsPayoutAmount()
  @IsRequired()
  amount: number;

  @ApiProperty({ format: 'date', description: 'First UTC day paid for.', example: '2026-11-01' })
  @IsIsoDay()
  @IsRequired()
  period_start: string;

  @ApiProperty({
    format: 'date',
    description: 'Last UTC day paid for, included; not before `period_start`.',
    example: '2026-11-30',
  })
  @IsNotBeforePeriodStart()
  @IsIsoDay()
  @IsRequired()
  period_end: string;

  @ApiProperty({ enum: PAYOUT_METHODS, example: 'bank_transfer' })
  @IsIn(PAYOUT_METHODS)
  @IsRequired()
  method: PayoutMethod;

  @ApiProperty({
    minLength: 1,
    maxLength: 100,
    description:
      "The payment's own reference (bank transfer, PayPal transaction, …), unique per publisher: sending the same payout again with it answers the first one.",
    example: 'SEPA-2026-11-0042',
  })
  @IsText({ min: 1, max: 100 })
  @IsRequired()
  reference: string;
}

export class VoidPayoutDto {
  @ApiProperty({
    minLength: 1,
    maxLength: 500,
    description: 'Why the payout is voided.',
    example: 'Transfer returned by the bank.',
  })
  @IsText({ min: 1, max: 500 })
  @IsRequired()
  reason: string;
}
