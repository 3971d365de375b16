import * as argon2 from 'argon2';
import { PUBLISHER_EMAIL, type BenchDatabase, type Seeded } from '../seed/database';
import type { RequestSpec } from './open-loop';

/**
 * The dashboard's stats page as load: `GET /api/stats` for the last 30 days, as the page asks
 * by default (src/dashboard/web/pages/stats.tsx), signed in as the benchmark's publisher.
 *
 * So that the query reads what a big publisher's does (bench/stats-query.ts: 10 models × 20
 * campaigns, ~6,000 roll-up rows in 30 days), the 29 days before today get that history for
 * 10 of the publisher's 100 models; today's rows are the run's own traffic.
 */

const PASSWORD = 'bench dashboard password 2718';
const HISTORY_DAYS = 29;
const HISTORY_MODELS = 10;
const HISTORY_CAMPAIGNS = 20;

const DAY_MS = 86_400_000;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY_MS).toISOString().slice(0, 10);

/** Gives the publisher a password and a history, signs in; the stats request, with its token. */
export async function dashboardStatsRequest(
  db: BenchDatabase,
  seeded: Seeded,
  url: string,
): Promise<RequestSpec> {
  const hash = await argon2.hash(PASSWORD, { type: argon2.argon2id });
  // An encoded argon2 hash is base64 and `$,=`: nothing to escape in a quoted SQL literal.
  await db.query(
    `UPDATE publishers SET password_hash = '${hash}' WHERE id = '${seeded.publisherId}'`,
  );
  await seedHistory(db, seeded);
  const response = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: PUBLISHER_EMAIL, password: PASSWORD }),
  });
  if (!response.ok) {
    throw new Error(`dashboard sign-in: ${response.status} ${await response.text()}`);
  }
  const { access_token: token } = (await response.json()) as { access_token: string };
  return {
    method: 'GET',
    path: `/api/stats?from=${daysAgo(HISTORY_DAYS)}&to=${daysAgo(0)}`,
    headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
  };
}

/** Billing and fill roll-ups for the days before today, as the service would have written. */
async function seedHistory(db: BenchDatabase, seeded: Seeded): Promise<void> {
  const models = seeded.modelIds.slice(0, HISTORY_MODELS);
  const stats: (string | number)[][] = [];
  const fills: (string | number)[][] = [];
  for (let ago = 1; ago <= HISTORY_DAYS; ago++) {
    const day = daysAgo(ago);
    for (const model of models) {
      for (let c = 0; c < HISTORY_CAMPAIGNS; c++) {
        const campaign = `bench-${String(c).padStart(8, '0')}`;
        stats.push([day, model, campaign, seeded.publisherId, 1000, 20, 1, 9_000_000, 6_300_000]);
      }
      fills.push([day, model, 'filled', seeded.publisherId, 20_000]);
      fills.push([day, model, 'no_match', seeded.publisherId, 5_000]);
    }
  }
  const statColumns = [
    'day',
    'model_id',
    'campaign_id',
    'publisher_id',
    'impressions',
    'clicks',
    'invalid_clicks',
    'spend_micros',
    'earnings_micros',
  ];
  const fillColumns = ['day', 'model_id', 'outcome', 'publisher_id', 'requests'];
  // SQLite takes at most 32,766 bound values per statement.
  for (let from = 0; from < stats.length; from += 1_000) {
    await db.insert('daily_stats', statColumns, stats.slice(from, from + 1_000));
  }
  await db.insert('daily_fill_stats', fillColumns, fills);
}
