import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { sqlDatetime } from '@/common/clock';
import { timestampOf } from '@/database/columns';
import { type Dialect, dialectOf } from '@/database/dialect';
import { known, type Read, type Statement, TableRows, updateByIds } from '@/database/statements';
import { Impression } from './entities/impression.entity';

const IMPRESSIONS = new TableRows<Impression>('impressions', {
  id: (r) => r.id,
  created_at: (r) => sqlDatetime(r.createdAt),
  model_id: (r) => r.modelId,
  publisher_id: (r) => r.publisherId,
  campaign_id: (r) => r.campaignId,
  api_key_id: (r) => r.apiKeyId,
  bid_micros: (r) => r.bidMicros,
  revenue_share_ppm: (r) => r.revenueSharePpm,
  country: (r) => r.country,
  device: (r) => r.device,
  user_location: (r) => r.userLocation,
  user_device_info: (r) => r.userDeviceInfo,
  keywords: (r) => r.keywords,
  conversation: (r) => r.conversation,
  clicked_at: (r) => (r.clickedAt === null ? null : sqlDatetime(r.clickedAt)),
  // A number: SQLite's driver binds no booleans.
  test: (r) => (r.test ? 1 : 0),
  relevance_ppm: (r) => r.relevancePpm,
  matched: (r) => r.matched,
  campaign_targets: (r) => r.campaignTargets,
});

/** The impressions table's columns in insert order; the benchmark's raw baseline uses them too. */
export const IMPRESSION_COLUMNS: string[] = [...IMPRESSIONS.columns];

/** An impression as the click path reads it: what judges, bills and counts its clicks. */
export type ClickedImpression = Pick<
  Impression,
  | 'id'
  | 'createdAt'
  | 'modelId'
  | 'publisherId'
  | 'campaignId'
  | 'apiKeyId'
  | 'bidMicros'
  | 'revenueSharePpm'
  | 'test'
  | 'clickedAt'
>;

/** An impression as the view path reads it: whose roll-up a view counts in, and whether it may. */
export type ViewedImpression = Pick<
  Impression,
  'id' | 'createdAt' | 'modelId' | 'publisherId' | 'campaignId' | 'test'
> & { viewedAt: Date | null };

interface ClickedRow {
  id: string;
  created_at: Date | string;
  model_id: string;
  publisher_id: string;
  campaign_id: string;
  api_key_id: string | null;
  bid_micros: string | number;
  revenue_share_ppm: string | number;
  test: string | number | boolean;
  clicked_at: Date | string | null;
}

/**
 * The impressions table's queries: the writer's batch insert, the click and view paths'
 * claims and the receipt look-up.
 */
@Injectable()
export class ImpressionsRepository {
  private readonly dialect: Dialect;

  constructor(private readonly dataSource: DataSource) {
    this.dialect = dialectOf(dataSource);
  }

  /** A batch's one INSERT, for the writer to commit with its roll-up. */
  insertStatement(rows: Impression[]): Statement {
    return IMPRESSIONS.insert(rows);
  }

  /**
   * The impressions with these ids, for a click batch's transaction; locked on MySQL (in id
   * order, so concurrent batches cannot deadlock): a second batch with a click on the same
   * impression waits, then sees it clicked. SQLite has one writer at a time anyway.
   */
  lockForClicks(ids: string[]): Read<Map<string, ClickedImpression>> {
    if (ids.length === 0) return known(new Map<string, ClickedImpression>());
    const sorted = [...ids].sort();
    return {
      statement: {
        sql: `SELECT id, created_at, model_id, publisher_id, campaign_id, api_key_id, bid_micros,
                     revenue_share_ppm, test, clicked_at
                FROM impressions
               WHERE id IN (${sorted.map(() => '?').join(', ')})
               ORDER BY id${this.dialect === 'mysql' ? ' FOR UPDATE' : ''}`,
        parameters: sorted,
      },
      from: (rows) =>
        new Map((rows as ClickedRow[]).map((row) => [row.id, clickedImpression(row)])),
    };
  }

  /**
   * The impressions with these ids, for a view batch's transaction; locked on MySQL (in id
   * order), so a concurrent batch with a view of the same impression waits, then sees it
   * viewed. SQLite has one writer at a time anyway.
   */
  lockForViews(ids: string[]): Read<Map<string, ViewedImpression>> {
    if (ids.length === 0) return known(new Map<string, ViewedImpression>());
    const sorted = [...ids].sort();
    type Row = Pick<
      ClickedRow,
      'id' | 'created_at' | 'model_id' | 'publisher_id' | 'campaign_id' | 'test'
    > & {
      viewed_at: Date | string | null;
    };
    return {
      statement: {
        sql: `SELECT id, created_at, model_id, publisher_id, campaign_id, test, viewed_at
                FROM impressions
               WHERE id IN (${sorted.map(() => '?').join(', ')})
               ORDER BY id${this.dialect === 'mysql' ? ' FOR UPDATE' : ''}`,
        parameters: sorted,
      },
      from: (rows) =>
        new Map(
          (rows as Row[]).map((row) => [
            row.id,
            {
              id: row.id,
              createdAt: timestampOf(row.created_at),
              modelId: row.model_id,
              publisherId: row.publisher_id,
              campaignId: row.campaign_id,
              test: Number(row.test) === 1 || row.test === true,
              viewedAt: row.viewed_at === null ? null : timestampOf(row.viewed_at),
            },
          ]),
        ),
    };
  }

  /**
   * Sets each impression's viewed_at, in one statement, only where none is set yet: even a
   * view decided twice is never recorded twice. null: none to set.
   */
  markViewedStatement(viewedAt: Map<string, Date>): Statement | null {
    if (viewedAt.size === 0) return null;
    const update = updateByIds('impressions', [...viewedAt.keys()], {
      viewed_at: (id) => sqlDatetime(viewedAt.get(id)!),
    });
    return { sql: `${update.sql} AND viewed_at IS NULL`, parameters: update.parameters };
  }

  /** One impression, for a receipt; null once purged (or never served). */
  findById(id: string): Promise<Impression | null> {
    return this.dataSource.getRepository(Impression).findOneBy({ id });
  }

  /** Sets each impression's clicked_at, in one statement; null: none to set. */
  markClickedStatement(clickedAt: Map<string, Date>): Statement | null {
    if (clickedAt.size === 0) return null;
    return updateByIds('impressions', [...clickedAt.keys()], {
      clicked_at: (id) => sqlDatetime(clickedAt.get(id)!),
    });
  }
}

/** Raw SQL's row: DATETIMEs as Dates (mysql2) or UTC text (SQLite), BIGINT as text or a number. */
function clickedImpression(row: ClickedRow): ClickedImpression {
  return {
    id: row.id,
    createdAt: timestampOf(row.created_at),
    modelId: row.model_id,
    publisherId: row.publisher_id,
    campaignId: row.campaign_id,
    apiKeyId: row.api_key_id,
    bidMicros: Number(row.bid_micros),
    revenueSharePpm: Number(row.revenue_share_ppm),
    // MySQL's TINYINT(1) and SQLite's integer: 0 or 1.
    test: Number(row.test) === 1 || row.test === true,
    clickedAt: row.clicked_at === null ? null : timestampOf(row.clicked_at),
  };
}
