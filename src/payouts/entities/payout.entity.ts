import { Column, Entity, Index } from 'typeorm';
import { IdColumn, MicrosColumn, RefColumn, TimestampColumn } from '@/database/columns';

export const PAYOUT_METHODS = ['bank_transfer', 'paypal', 'wise', 'check', 'other'] as const;
export type PayoutMethod = (typeof PAYOUT_METHODS)[number];

/**
 * Money paid out to a publisher, as an operator recorded it. Never edited: a mistake is
 * voided (with a reason), which returns the amount to the publisher's unpaid balance.
 * The reference (the bank's or provider's) is unique per publisher, so recording the same
 * payment twice cannot pay it twice.
 */
@Entity('payouts')
@Index('uq_payouts_publisher_reference', ['publisherId', 'reference'], { unique: true })
export class Payout {
  @IdColumn() id: string;
  @RefColumn('publisher_id') publisherId: string;
  @MicrosColumn('amount_micros') amountMicros: number;
  /** The UTC days the payout covers, `YYYY-MM-DD`, both included. */
  @Column({ name: 'period_start', type: 'varchar', length: 10 }) periodStart: string;
  @Column({ name: 'period_end', type: 'varchar', length: 10 }) periodEnd: string;
  @Column({ type: 'varchar', length: 16 }) method: PayoutMethod;
  @Column({ type: 'varchar', length: 100 }) reference: string;
  @TimestampColumn('created_at') createdAt: Date;
  /** The operator's account. */
  @RefColumn('created_by') createdBy: string;
  @TimestampColumn('voided_at', { nullable: true }) voidedAt: Date | null;
  @RefColumn('voided_by', { nullable: true }) voidedBy: string | null;
  @Column({ name: 'void_reason', type: 'varchar', length: 500, nullable: true })
  voidReason: string | null;
}
