import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { EntityManager, Repository } from 'typeorm';
import { sqlDatetime } from '@/common/clock';
import { timestampOf } from '@/database/columns';
import { dialectOf } from '@/database/dialect';
import { transactionWithRetry } from '@/database/sql';
import type { LedgerAccount } from '@/earnings/entities/ledger-entry.entity';
import { Publisher } from '@/publishers/entities/publisher.entity';
import { Payout } from './entities/payout.entity';

/** The ledger account a publisher's unpaid balance is earned in. */
const EARNINGS: LedgerAccount = 'publisher_earnings';

/** A publisher's figures for the payouts-due report, in micros. */
export interface DueRow {
  publisherId: string;
  email: string;
  name: string;
  earnedMicros: number;
  paidMicros: number;
  lastPayoutAt: Date | null;
}

/** A SUM as MySQL (a string) or SQLite (a number) answers it. */
type Sum = { total: string | number };

interface DueSql {
  id: string;
  email: string;
  name: string;
  earned: string | number;
  paid: string | number;
  last_at: Date | string | null;
}

/** The payouts table's queries, and the sums of the ledger that balances are made of. */
@Injectable()
export class PayoutsRepository {
  constructor(@InjectRepository(Payout) private readonly payouts: Repository<Payout>) {}

  /** Runs `work` in one transaction, run again whole when the database reports contention. */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return transactionWithRetry(this.payouts.manager, work);
  }

  /**
   * Whether the publisher exists, in the caller's transaction. MySQL locks its row, so that
   * payouts to one publisher are decided one after the other; SQLite has no row locks, and
   * `insertIfCovered` decides in one statement there.
   */
  async lockPublisher(manager: EntityManager, publisherId: string): Promise<boolean> {
    const publisher = await manager.findOne(Publisher, {
      select: { id: true },
      where: { id: publisherId },
      ...(dialectOf(manager) === 'mysql' ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
    return publisher !== null;
  }

  /** Everything the publisher has earned, in micros: its `publisher_earnings` entries. */
  async earnedMicros(publisherId: string, manager = this.payouts.manager): Promise<number> {
    const [row] = await manager.query<Sum[]>(
      'SELECT COALESCE(SUM(amount_micros), 0) AS total FROM ledger_entries WHERE publisher_id = ? AND account = ?',
      [publisherId, EARNINGS],
    );
    return Number(row.total);
  }

  /** What the publisher's payouts that are not voided add up to, in micros. */
  async paidMicros(publisherId: string, manager = this.payouts.manager): Promise<number> {
    const [row] = await manager.query<Sum[]>(
      'SELECT COALESCE(SUM(amount_micros), 0) AS total FROM payouts WHERE publisher_id = ? AND voided_at IS NULL',
      [publisherId],
    );
    return Number(row.total);
  }

  findByReference(
    publisherId: string,
    reference: string,
    manager = this.payouts.manager,
  ): Promise<Payout | null> {
    return manager.findOneBy(Payout, { publisherId, reference });
  }

  findById(id: string): Promise<Payout | null> {
    return this.payouts.findOneBy({ id });
  }

  /** The publisher's payouts, newest first (ids are time-ordered). */
  listNewestFirst(publisherId: string): Promise<Payout[]> {
    return this.payouts.find({ where: { publisherId }, order: { createdAt: 'DESC', id: 'DESC' } });
  }

  /**
   * Stores the payout only if `earnedMicros` minus the publisher's payouts (voided ones
   * aside) covers it, checked and inserted in one statement: on MySQL its read of the
   * payouts is a locking read (INSERT … SELECT), so it sees every committed payout; on
   * SQLite one statement is never interleaved with another request's.
   * @returns whether it was stored.
   */
  async insertIfCovered(
    manager: EntityManager,
    payout: Payout,
    earnedMicros: number,
  ): Promise<boolean> {
    await manager.query(
      `INSERT INTO payouts (id, publisher_id, amount_micros, period_start, period_end, method,
                            reference, created_at, created_by)
       SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?
         FROM publishers
        WHERE id = ?
          AND ? - (SELECT COALESCE(SUM(amount_micros), 0) FROM payouts
                    WHERE publisher_id = ? AND voided_at IS NULL) >= ?`,
      [
        payout.id,
        payout.publisherId,
        payout.amountMicros,
        payout.periodStart,
        payout.periodEnd,
        payout.method,
        payout.reference,
        sqlDatetime(payout.createdAt),
        payout.createdBy,
        payout.publisherId,
        earnedMicros,
        payout.publisherId,
        payout.amountMicros,
      ],
    );
    return (await manager.countBy(Payout, { id: payout.id })) > 0;
  }

  /** Voids the payout unless it already is: a second void keeps the first one's reason. */
  async voidOnce(id: string, at: Date, by: string, reason: string): Promise<void> {
    await this.payouts
      .createQueryBuilder()
      .update(Payout)
      .set({ voidedAt: at, voidedBy: by, voidReason: reason })
      .where('id = :id AND voided_at IS NULL', { id })
      .execute();
  }

  /**
   * Publisher accounts whose earnings minus payouts (voided ones aside) reach `minMicros`,
   * largest balance first; every publisher account when `minMicros` is null.
   */
  async due(minMicros: number | null): Promise<DueRow[]> {
    const unpaid = 'COALESCE(e.total, 0) - COALESCE(x.total, 0)';
    const rows = await this.payouts.query<DueSql[]>(
      `SELECT p.id, p.email, p.name, COALESCE(e.total, 0) AS earned,
              COALESCE(x.total, 0) AS paid, x.last_at
         FROM publishers p
         LEFT JOIN (SELECT publisher_id, SUM(amount_micros) AS total FROM ledger_entries
                     WHERE account = ? GROUP BY publisher_id) e ON e.publisher_id = p.id
         LEFT JOIN (SELECT publisher_id, SUM(amount_micros) AS total, MAX(created_at) AS last_at
                      FROM payouts WHERE voided_at IS NULL GROUP BY publisher_id) x
                ON x.publisher_id = p.id
        WHERE p.role = 'publisher'${minMicros === null ? '' : ` AND ${unpaid} >= ?`}
        ORDER BY ${unpaid} DESC, p.id`,
      minMicros === null ? [EARNINGS] : [EARNINGS, minMicros],
    );
    return rows.map((row) => ({
      publisherId: row.id,
      email: row.email,
      name: row.name,
      earnedMicros: Number(row.earned),
      paidMicros: Number(row.paid),
      lastPayoutAt: row.last_at === null ? null : timestampOf(row.last_at),
    }));
  }
}
