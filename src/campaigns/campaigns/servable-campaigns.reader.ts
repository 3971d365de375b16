import { Injectable } from '@nestjs/common';
import type { Device } from '@/campaigns/campaigns/devices';
import { utcDay } from '@/common/clock';
import { AdvertisersService } from '@/campaigns/advertisers/advertisers.service';
import { budgetFromRow, canPay } from '@/campaigns/billing/campaign-budget';
import { timestampOf } from '@/database/columns';
import { CampaignsRepository } from './campaigns.repository';
import type { KeywordTranslations } from './keyword-translations';
import { ServabilityRepository } from '@/campaigns/change-notices/servability.repository';

/**
 * A servable campaign as the snapshot reads it: only the fields the ad index uses, never a
 * hydrated entity (at 1M campaigns entities cost seconds and gigabytes).
 */
export interface ServableCampaign {
  id: string;
  advertiserId: string;
  name: string;
  text: string;
  imageUrl: string | null;
  targetUrl: string;
  /** The landing URL's click id parameter; null: none. */
  clickIdParam: string | null;
  /** An IAB content category id (`CONTENT_CATEGORIES`), or null. */
  category: string | null;
  keywords: string[];
  /**
   * Phrases per keyword (keys among `keywords`, all normalised); `{}` when none, one shared
   * frozen object for every such campaign. Always set by the reader; optional only so that
   * snapshots built by hand in specs need not name it.
   */
  translations?: Readonly<KeywordTranslations>;
  countries: string[];
  devices: Device[];
  bidMicros: number;
  createdAt: Date;
}

/** Most campaigns have no translations: they share this one empty map instead of a million. */
const NO_TRANSLATIONS: Readonly<KeywordTranslations> = Object.freeze({});

/** Rows per page of the snapshot query: keeps the driver's buffers small at 1M campaigns. */
const SNAPSHOT_PAGE = 20_000;

/**
 * Servable campaigns are handed to the consumer in batches of this many rows read, and the
 * event loop gets a turn between batches: parsing a whole page at once holds it ~50 ms.
 */
const SNAPSHOT_BATCH = 2_000;

/** What a snapshot read learned beyond the campaigns themselves. */
export interface SnapshotFacts {
  /**
   * The earliest `starts_at` or `ends_at` after the read's `now` of an active campaign of
   * an active advertiser (epoch ms), or null: until then no schedule changes what is servable.
   */
  nextScheduleChange: number | null;
}

/**
 * A cheap summary of what decides servability besides the clock, compared between two
 * moments to tell whether the snapshot may have changed (see `probe`).
 */
export interface ServabilityProbe {
  /**
   * How many times so far a campaign has run out of budget by spend (no room left for one
   * more click at its bid, total or daily): a running count, each campaign counted once as
   * it runs out, so between two probes it grows by the campaigns that ran out in between.
   */
  exhausted: number;
  /** Everything else, as one comparable string. */
  other: string;
}

/** Reads the snapshot of servable campaigns that the ad index is built from. */
@Injectable()
export class ServableCampaignsReader {
  constructor(
    private readonly campaigns: CampaignsRepository,
    private readonly advertisers: AdvertisersService,
    private readonly servability: ServabilityRepository,
  ) {}

  /**
   * Campaigns that may be served at `now`: active, of an active advertiser, scheduled, funded.
   * Read page by page (keyset on id) with only the needed columns, filtered as it goes and
   * handed to `consume` in batches, so memory never holds the whole snapshot nor a million
   * entities, and the event loop gets a turn between batches.
   */
  async readServable(
    now: Date,
    consume: (batch: ServableCampaign[]) => Promise<void>,
  ): Promise<SnapshotFacts> {
    // Identical strings across campaigns (keywords, advertiser ids) share one copy in memory.
    const interned = new Map<string, string>();
    const internOne = (value: string): string => {
      const known = interned.get(value);
      if (known !== undefined) return known;
      interned.set(value, value);
      return value;
    };
    const intern = (values: string[]) => values.map(internOne);
    const internTranslations = (json: string | null): Readonly<KeywordTranslations> => {
      if (json === null) return NO_TRANSLATIONS;
      const translations = JSON.parse(json) as KeywordTranslations;
      // fromEntries defines own properties, so even a "__proto__" keyword stays a plain key.
      return Object.fromEntries(
        Object.entries(translations).map(([keyword, phrases]) => [
          internOne(keyword),
          intern(phrases),
        ]),
      );
    };
    const day = utcDay(now);
    const nowMs = now.getTime();
    let nextScheduleChange: number | null = null;
    const noteScheduleChange = (at: number): void => {
      if (at > nowMs && (nextScheduleChange === null || at < nextScheduleChange)) {
        nextScheduleChange = at;
      }
    };
    const activeAdvertisers = new Set(await this.advertisers.activeIds());
    // The next page is asked for as soon as a page arrives, so the database reads it while
    // this one is parsed and built (at 1M campaigns the reads were ~a quarter of start-up).
    // Filtered here, not in the query: see `snapshotPage`.
    const pageAfter = (after: string) => {
      const page = this.campaigns.snapshotPage(after, SNAPSHOT_PAGE);
      // Awaited below; until then a failure must not count as unhandled.
      page.catch(() => undefined);
      return page;
    };
    let pending = pageAfter('');
    for (;;) {
      const rows = await pending;
      const more = rows.length === SNAPSHOT_PAGE;
      if (more) pending = pageAfter(rows[rows.length - 1].id);
      for (let from = 0; from < rows.length; from += SNAPSHOT_BATCH) {
        const batch: ServableCampaign[] = [];
        for (const row of rows.slice(from, from + SNAPSHOT_BATCH)) {
          if (row.status !== 'active' || !activeAdvertisers.has(row.advertiser_id)) continue;
          const startsAt = row.starts_at === null ? null : timestampOf(row.starts_at).getTime();
          const endsAt = row.ends_at === null ? null : timestampOf(row.ends_at).getTime();
          if (startsAt !== null) noteScheduleChange(startsAt);
          if (endsAt !== null) noteScheduleChange(endsAt);
          if (startsAt !== null && startsAt > nowMs) continue;
          if (endsAt !== null && endsAt <= nowMs) continue;
          const bid = Number(row.bid_micros);
          if (!canPay(budgetFromRow(row), bid, day)) continue;
          batch.push({
            id: row.id,
            advertiserId: internOne(row.advertiser_id),
            name: row.name,
            text: row.text,
            imageUrl: row.image_url,
            targetUrl: row.target_url,
            clickIdParam: row.click_id_param === null ? null : internOne(row.click_id_param),
            category: row.category === null ? null : internOne(row.category),
            keywords: intern(JSON.parse(row.keywords) as string[]),
            translations: internTranslations(row.keyword_translations),
            countries: intern(JSON.parse(row.countries) as string[]),
            devices: intern(JSON.parse(row.devices) as string[]) as Device[],
            bidMicros: bid,
            createdAt: timestampOf(row.created_at),
          });
        }
        await consume(batch);
      }
      if (!more) return { nextScheduleChange };
    }
  }

  /**
   * The servability probe at `now`: one row read by its primary key (`servability_version`),
   * O(1) whatever the number of campaigns. Between two probes of the same UTC day the
   * snapshot can only have changed if the row did, because every change that can alter it
   * adds to the row in its own transaction, whichever instance makes it:
   * - any change made through CampaignsService (create, edit, status, budget, schedule,
   *   keywords, keyword translations, bid, text): `changeCount`, as it writes its audit rows;
   * - an advertiser's status (AdvertisersService): `changeCount`;
   * - spend: a campaign whose click batch leaves it without room for one more click at its
   *   bid: `exhaustionCount` (CampaignBillingService), apart from the other changes because
   *   the index drops such a campaign on notice (the index service discounts the campaigns
   *   it has already excluded). A billed click that leaves room changes nothing here; that is
   *   also why `updated_at` of campaigns is no use: every billed click bumps it.
   * Nothing else writes campaigns' status or servable fields. A write that bypasses these
   * services (SQL by hand) is not seen until the next rebuild, unless it adds to the row.
   * What the clock changes (a schedule bound passing, the UTC day for daily budgets) is
   * not in the probe: the index service knows from the last read when that happens next.
   */
  async probe(now: Date): Promise<ServabilityProbe> {
    const counts = await this.servability.read();
    return {
      exhausted: counts.exhaustions,
      other: JSON.stringify([utcDay(now), counts.changes]),
    };
  }
}
