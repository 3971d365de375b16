import { LedgerEntry } from '@/earnings/entities/ledger-entry.entity';
import { ask, campaignLink, followAsBrowser } from './ads';
import type { TestApp } from './test-app';

let campaigns = 0;

/**
 * Earns money the way a publisher does: a campaign bidding `bid` (units), served to the key
 * and clicked `clicks` times by a browser, each click billed.
 */
export async function earnClicks(
  t: TestApp,
  key: string,
  clicks: number,
  bid = '10',
): Promise<void> {
  const keyword = `payoutword${++campaigns}`;
  await t.f.campaign({ keywords: keyword, bid });
  for (let i = 0; i < clicks; i++) {
    const link = await campaignLink(await t.fetchAds(key, ask(keyword)));
    expect((await followAsBrowser(link)).status).toBe(302);
  }
}

/** The ledger's sum for one account, of one publisher or of all, in micros. */
export async function ledgerMicros(
  t: TestApp,
  account: LedgerEntry['account'],
  publisherId?: string,
): Promise<number> {
  const entries = await t.dataSource
    .getRepository(LedgerEntry)
    .findBy(publisherId ? { account, publisherId } : { account });
  return entries.reduce((total, e) => total + e.amountMicros, 0);
}
