import type { AdvertisersService } from '@/campaigns/advertisers/advertisers.service';
import type { CampaignsRepository, SnapshotRow } from './campaigns.repository';
import type { ServabilityRepository } from '@/campaigns/change-notices/servability.repository';
import { ServableCampaignsReader } from './servable-campaigns.reader';

/** Over more than two pages of the snapshot query (20,000 rows each). */
const ROWS = 45_001;

function row(n: number): SnapshotRow {
  return {
    id: `c${String(n).padStart(6, '0')}`,
    advertiser_id: n % 10 === 0 ? 'paused-advertiser' : 'advertiser',
    status: 'active',
    name: `Campaign ${n}`,
    text: 'Text',
    image_url: null,
    target_url: 'https://example.com',
    click_id_param: 'adl_click',
    category: null,
    keywords: '["laptop"]',
    keyword_translations: null,
    countries: '[]',
    devices: '[]',
    bid_micros: 1_000,
    budget_total_micros: null,
    budget_daily_micros: null,
    spent_micros: 0,
    spent_today_micros: 0,
    spent_day: null,
    starts_at: null,
    ends_at: null,
    created_at: new Date('2026-01-01T00:00:00Z'),
  };
}

/** The campaigns table as its repository pages it (keyset on id), with a log of the reads. */
function pagedTable(failAfter?: string) {
  const rows = Array.from({ length: ROWS }, (_, i) => row(i));
  const log: string[] = [];
  const repository = {
    snapshotPage: (after: string, limit: number) => {
      log.push(`read after '${after}'`);
      if (failAfter !== undefined && after === failAfter) {
        return Promise.reject(new Error('connection lost'));
      }
      const from = after === '' ? 0 : rows.findIndex((r) => r.id > after);
      return Promise.resolve(from < 0 ? [] : rows.slice(from, from + limit));
    },
  };
  return { rows, log, repository: repository as unknown as CampaignsRepository };
}

const readerOf = (repository: CampaignsRepository) =>
  new ServableCampaignsReader(
    repository,
    { activeIds: () => Promise.resolve(['advertiser']) } as unknown as AdvertisersService,
    {} as ServabilityRepository,
  );

describe('ServableCampaignsReader.readServable', () => {
  it('reads every page in id order, filtered, asking for the next page before building this one', async () => {
    const table = pagedTable();
    const ids: string[] = [];
    await readerOf(table.repository).readServable(new Date(), (batch) => {
      if (ids.length === 0) table.log.push('first batch built');
      ids.push(...batch.map((c) => c.id));
      return Promise.resolve();
    });
    const servable = table.rows.filter((r) => r.advertiser_id === 'advertiser').map((r) => r.id);
    expect(ids).toEqual(servable);
    // The second page was asked for before the first page's first batch was built.
    expect(table.log.slice(0, 3)).toEqual([
      "read after ''",
      `read after '${table.rows[19_999].id}'`,
      'first batch built',
    ]);
    expect(table.log.filter((line) => line.startsWith('read'))).toHaveLength(3);
  });

  it('fails with a page that could not be read, without an unhandled rejection', async () => {
    const table = pagedTable(row(19_999).id);
    const unhandled = jest.fn();
    process.on('unhandledRejection', unhandled);
    try {
      await expect(
        readerOf(table.repository).readServable(new Date(), () => Promise.resolve()),
      ).rejects.toThrow('connection lost');
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });
});
