import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { EntityManager, Repository } from 'typeorm';
import { sqlDatetime } from '@/common/clock';
import type { Page } from '@/common/dto/page-query.dto';
import { timestampOf } from '@/database/columns';
import { dialectOf } from '@/database/dialect';
import { transactionWithRetry } from '@/database/sql';
import { known, type Read, type Statement, updateByIds } from '@/database/statements';
import type { CampaignChanges } from '@/campaigns/audit/campaign-audit';
import {
  type BudgetColumns,
  type BudgetState,
  budgetFromRow,
} from '@/campaigns/billing/campaign-budget';
import { CampaignAuditEntry } from '@/campaigns/entities/campaign-audit-entry.entity';
import { Campaign, type CampaignStatus } from '@/campaigns/entities/campaign.entity';

/** Which campaigns a list holds; every given condition must hold. */
export interface CampaignListFilter {
  status?: CampaignStatus;
  advertiserId?: string;
  /** A normalised keyword (see `normaliseKeyword`): campaigns targeting it. */
  keyword?: string;
}

/** A campaign as billing reads it, under lock: what decides whether a click is paid. */
export interface ChargeableCampaign {
  id: string;
  /** Its status is active (not paused or archived) now. */
  active: boolean;
  /** Epoch milliseconds of its end, or null: open-ended. */
  endsAt: number | null;
  bidMicros: number;
  budget: BudgetState;
}

/**
 * A campaigns row as the snapshot query reads it: only the columns the ad index uses, as raw
 * SQL returns them, never a hydrated entity (at 1M campaigns entities cost seconds and
 * gigabytes). DATETIMEs are Dates from mysql2, UTC `YYYY-MM-DD HH:MM:SS.mmm` text from SQLite.
 */
export interface SnapshotRow extends BudgetColumns {
  id: string;
  advertiser_id: string;
  status: string;
  name: string;
  text: string;
  image_url: string | null;
  target_url: string;
  click_id_param: string | null;
  category: string | null;
  keywords: string;
  /** JSON of keyword → phrases, or null: none (every campaign older than the column). */
  keyword_translations: string | null;
  countries: string;
  devices: string;
  bid_micros: string | number;
  starts_at: Date | string | null;
  ends_at: Date | string | null;
  created_at: Date | string;
}

/**
 * The queries of the campaigns table and its audit: operators' reads and audited writes,
 * billing's budget reads and writes, and the index's snapshot.
 */
@Injectable()
export class CampaignsRepository {
  constructor(
    @InjectRepository(Campaign) private readonly campaigns: Repository<Campaign>,
    @InjectRepository(CampaignAuditEntry) private readonly audit: Repository<CampaignAuditEntry>,
  ) {}

  /**
   * Runs `work` in one transaction, run again whole when the database reports contention;
   * `work` hands the transaction's manager to this repository's methods.
   */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return transactionWithRetry(this.campaigns.manager, work);
  }

  findById(id: string): Promise<Campaign | null> {
    return this.campaigns.findOneBy({ id });
  }

  /**
   * The campaign, in the caller's transaction. MySQL locks the row so that concurrent edits
   * audit against what they replace; SQLite serialises writers anyway and has no row locks.
   */
  lockForUpdate(manager: EntityManager, id: string): Promise<Campaign | null> {
    return manager.findOne(Campaign, {
      where: { id },
      ...(dialectOf(manager) === 'mysql' ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
  }

  /** Stores a new campaign and the audit entry of its creation, in the caller's transaction. */
  async insertWithAudit(
    manager: EntityManager,
    campaign: Campaign,
    created: CampaignAuditEntry,
  ): Promise<void> {
    await manager.insert(Campaign, campaign);
    await manager.insert(CampaignAuditEntry, created);
  }

  /**
   * Writes an operator's changes (never the spend columns, so a concurrent click's charge is
   * never overwritten) and their audit entries, in the caller's transaction.
   */
  async updateWithAudit(
    manager: EntityManager,
    id: string,
    changes: CampaignChanges & Pick<Campaign, 'updatedAt'>,
    entries: CampaignAuditEntry[],
  ): Promise<void> {
    await manager.update(Campaign, { id }, changes);
    await manager.insert(CampaignAuditEntry, entries);
  }

  /** One page of the campaigns that pass the filter, newest first, and their count. */
  async listNewestFirst(
    filter: CampaignListFilter,
    page: Page,
  ): Promise<{ items: Campaign[]; total: number }> {
    const query = this.campaigns
      .createQueryBuilder('campaign')
      .orderBy('campaign.createdAt', 'DESC')
      .addOrderBy('campaign.id', 'DESC')
      .offset(page.offset)
      .limit(page.perPage);
    if (filter.status) query.andWhere('campaign.status = :status', { status: filter.status });
    if (filter.advertiserId) {
      query.andWhere('campaign.advertiserId = :advertiserId', {
        advertiserId: filter.advertiserId,
      });
    }
    if (filter.keyword !== undefined) {
      // Keywords are stored as a JSON array, so a quoted element matches whole keywords only.
      const element = JSON.stringify(filter.keyword);
      query.andWhere("campaign.keywords LIKE :element ESCAPE '!'", {
        element: `%${element.replace(/[!%_]/g, '!$&')}%`,
      });
    }
    const [items, total] = await query.getManyAndCount();
    return { items, total };
  }

  /**
   * One page of a campaign's audit: newest change first, the fields of one change in the
   * order they were written (ids are time-ordered).
   */
  async auditNewestFirst(
    campaignId: string,
    page: Page,
  ): Promise<{ items: CampaignAuditEntry[]; total: number }> {
    const [items, total] = await this.audit.findAndCount({
      where: { campaignId },
      order: { createdAt: 'DESC', id: 'ASC' },
      skip: page.offset,
      take: page.perPage,
    });
    return { items, total };
  }

  /**
   * The campaigns' budgets, for the caller's transaction to read. On MySQL the rows are
   * locked (in id order, so concurrent batches cannot deadlock) as they are read: concurrent
   * click batches serialise on them and can never overspend. SQLite has one writer at a time.
   */
  lockBudgets(ids: string[]): Read<ChargeableCampaign[]> {
    if (ids.length === 0) return known([]);
    const sorted = [...new Set(ids)].sort();
    const mysql = dialectOf(this.campaigns.manager) === 'mysql';
    return {
      statement: {
        sql: `SELECT id, status, ends_at, bid_micros, budget_total_micros, budget_daily_micros,
                     spent_micros, spent_today_micros, spent_day
                FROM campaigns
               WHERE id IN (${sorted.map(() => '?').join(', ')})
               ORDER BY id${mysql ? ' FOR UPDATE' : ''}`,
        parameters: sorted,
      },
      from: (rows) =>
        (rows as BudgetRow[]).map((row) => ({
          id: row.id,
          active: row.status === 'active',
          endsAt: row.ends_at === null ? null : timestampOf(row.ends_at).getTime(),
          bidMicros: Number(row.bid_micros),
          budget: budgetFromRow(row),
        })),
    };
  }

  /** The campaigns' new spend in one statement, for the caller to send; null: none. */
  spendStatement(budgets: Map<string, BudgetState>, at: Date): Statement | null {
    if (budgets.size === 0) return null;
    const spend = (id: string) => budgets.get(id)!;
    return updateByIds(
      'campaigns',
      [...budgets.keys()],
      {
        spent_micros: (id) => spend(id).spentMicros,
        spent_today_micros: (id) => spend(id).spentTodayMicros,
        spent_day: (id) => spend(id).spentDay,
      },
      { updated_at: sqlDatetime(at) },
    );
  }

  /**
   * Up to `limit` campaigns with ids after `after`, in id order: one table walked along its
   * primary key, because a join (or a filter on status) lets the planner sort the whole
   * table for every page.
   */
  snapshotPage(after: string, limit: number): Promise<SnapshotRow[]> {
    return this.campaigns.query(
      `SELECT id, advertiser_id, status, name, text, image_url, target_url, click_id_param, category,
              keywords, keyword_translations, countries, devices, bid_micros,
              budget_total_micros, budget_daily_micros, spent_micros, spent_today_micros,
              spent_day, starts_at, ends_at, created_at
         FROM campaigns
        WHERE id > ?
        ORDER BY id
        LIMIT ${Number(limit)}`,
      [after],
    );
  }
}

interface BudgetRow extends BudgetColumns {
  id: string;
  status: string;
  ends_at: Date | string | null;
  bid_micros: string | number;
}
