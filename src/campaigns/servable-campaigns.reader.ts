import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type { Device } from '@/ads/matching/matching.types';
import { utcDay } from '@/common/clock';
import { AdvertisersService } from './advertisers.service';
import { Campaign } from './entities/campaign.entity';

/**
 * A servable campaign as the snapshot query reads it: only the columns the ad index uses,
 * never a hydrated entity (at 1M campaigns entities cost seconds and gigabytes).
 */
export interface ServableCampaign {
  id: string;
  name: string;
  text: string;
  imageUrl: string | null;
  targetUrl: string;
  keywords: string[];
  countries: string[];
  devices: Device[];
  bidMicros: number;
  createdAt: Date;
}

/** Rows per page of the snapshot query: keeps the driver's buffers small at 1M campaigns. */
const SNAPSHOT_PAGE = 20_000;

/** Reads the snapshot of servable campaigns that the ad index is built from. */
@Injectable()
export class ServableCampaignsReader {
  constructor(
    @InjectRepository(Campaign) private readonly campaigns: Repository<Campaign>,
    private readonly advertisers: AdvertisersService,
  ) {}

  /**
   * Campaigns that may be served at `now`: active, of an active advertiser, scheduled, funded.
   * Read page by page (keyset on id) with only the needed columns, and filtered as it goes,
   * so memory holds the servable snapshot and one page, never a million entities.
   */
  async findServable(now: Date): Promise<ServableCampaign[]> {
    const servable: ServableCampaign[] = [];
    // Identical keyword strings across campaigns share one copy in memory.
    const interned = new Map<string, string>();
    const intern = (values: string[]) =>
      values.map((value) => {
        const known = interned.get(value);
        if (known !== undefined) return known;
        interned.set(value, value);
        return value;
      });
    const day = utcDay(now);
    const nowMs = now.getTime();
    const activeAdvertisers = new Set(await this.advertisers.activeIds());
    let after = '';
    for (;;) {
      // One table, walked along its primary key: a join (or a filter on status) lets the
      // planner sort the whole table for every page.
      const rows: SnapshotRow[] = await this.campaigns.query(
        `SELECT id, advertiser_id, status, name, text, image_url, target_url, keywords,
                countries, devices, bid_micros, budget_total_micros, budget_daily_micros,
                spent_micros, spent_today_micros, spent_day, starts_at, ends_at, created_at
           FROM campaigns
          WHERE id > ?
          ORDER BY id
          LIMIT ${SNAPSHOT_PAGE}`,
        [after],
      );
      for (const row of rows) {
        if (row.status !== 'active' || !activeAdvertisers.has(row.advertiser_id)) continue;
        const bid = Number(row.bid_micros);
        if (row.starts_at !== null && toDate(row.starts_at).getTime() > nowMs) continue;
        if (row.ends_at !== null && toDate(row.ends_at).getTime() <= nowMs) continue;
        const total = row.budget_total_micros === null ? null : Number(row.budget_total_micros);
        if (total !== null && Number(row.spent_micros) + bid > total) continue;
        const daily = row.budget_daily_micros === null ? null : Number(row.budget_daily_micros);
        const spentToday = row.spent_day === day ? Number(row.spent_today_micros) : 0;
        if (daily !== null && spentToday + bid > daily) continue;
        servable.push({
          id: row.id,
          name: row.name,
          text: row.text,
          imageUrl: row.image_url,
          targetUrl: row.target_url,
          keywords: intern(JSON.parse(row.keywords) as string[]),
          countries: intern(JSON.parse(row.countries) as string[]),
          devices: intern(JSON.parse(row.devices) as string[]) as Device[],
          bidMicros: bid,
          createdAt: toDate(row.created_at),
        });
      }
      if (rows.length < SNAPSHOT_PAGE) return servable;
      after = rows[rows.length - 1].id;
    }
  }
}

interface SnapshotRow {
  id: string;
  advertiser_id: string;
  status: string;
  name: string;
  text: string;
  image_url: string | null;
  target_url: string;
  keywords: string;
  countries: string;
  devices: string;
  bid_micros: string | number;
  budget_total_micros: string | number | null;
  budget_daily_micros: string | number | null;
  spent_micros: string | number;
  spent_today_micros: string | number;
  spent_day: string | null;
  starts_at: Date | string | null;
  ends_at: Date | string | null;
  created_at: Date | string;
}

/** MySQL returns DATETIME as a Date (timezone 'Z'); SQLite as the UTC text TypeORM wrote. */
function toDate(value: Date | string): Date {
  return value instanceof Date ? value : new Date(`${value.replace(' ', 'T')}Z`);
}
