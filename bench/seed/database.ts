import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection, type Connection } from 'mysql2/promise';
import { DataSource } from 'typeorm';
import { generateAdvertiserKey } from '@/conversions/advertiser-key-material';
import { generateApiKey } from '@/publishers/api-key-material';
import { sqlDatetime } from '@/common/clock';
import type { DatabaseConfig } from '@/config/app-config';
import { newId } from '@/database/columns';
import { buildDataSourceOptions } from '@/database/data-source-options';
import { ENTITIES } from '@/entities';
import { generateCampaign, vocabularyFor } from './generate';

export const MARIADB_SERVER = 'mysql://root@127.0.0.1:3306/';
export const PUBLISHER_EMAIL = 'bench@adline.local';

export type Row = (string | number | null)[];

/** A fresh database for one benchmark run: raw multi-row inserts, counts, and its removal. */
export interface BenchDatabase {
  kind: 'mariadb' | 'sqlite';
  /** DATABASE_URL for the service. */
  url: string;
  insert(table: string, columns: string[], rows: Row[]): Promise<void>;
  count(table: string, where?: string): Promise<number>;
  query<T>(sql: string): Promise<T[]>;
  close(): Promise<void>;
  drop(): Promise<void>;
}

export async function createBenchDatabase(kind: 'mariadb' | 'sqlite'): Promise<BenchDatabase> {
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'adline-bench-'));
    const file = join(dir, 'adline.sqlite');
    await migrate({ type: 'sqlite', file });
    const dataSource = new DataSource(buildDataSourceOptions({ type: 'sqlite', file }, ENTITIES));
    await dataSource.initialize();
    const query = async <T>(sql: string, parameters: unknown[] = []) =>
      dataSource.query<T[]>(sql, parameters);
    return {
      kind,
      url: `sqlite:${file}`,
      insert: async (table, columns, rows) => {
        const placeholders = `(${columns.map(() => '?').join(', ')})`;
        await query(
          `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${rows.map(() => placeholders).join(', ')}`,
          rows.flat(),
        );
      },
      count: async (table, where = '1 = 1') =>
        Number(
          (await query<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table} WHERE ${where}`))[0].n,
        ),
      query,
      close: async () => {
        if (dataSource.isInitialized) await dataSource.destroy();
      },
      drop: async () => {
        if (dataSource.isInitialized) await dataSource.destroy();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const name = `adline_bench_${randomBytes(4).toString('hex')}`;
  const admin = await createConnection(MARIADB_SERVER);
  await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await admin.end();
  const url = `${MARIADB_SERVER}${name}`;
  await migrate({ type: 'mysql', flavour: 'mariadb', url, database: name });
  let connection: Connection | null = await createConnection({ uri: url, timezone: 'Z' });
  const open = async (): Promise<Connection> =>
    (connection ??= await createConnection({ uri: url, timezone: 'Z' }));
  return {
    kind,
    url: url.replace(/^mysql:/, 'mariadb:'),
    insert: async (table, columns, rows) => {
      const placeholders = `(${columns.map(() => '?').join(', ')})`;
      await (
        await open()
      ).query(
        `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${rows.map(() => placeholders).join(', ')}`,
        rows.flat(),
      );
    },
    count: async (table, where = '1 = 1') => {
      const [rows] = await (
        await open()
      ).query(`SELECT COUNT(*) AS n FROM ${table} WHERE ${where}`);
      return Number((rows as { n: number | string }[])[0].n);
    },
    query: async <T>(sql: string) => (await (await open()).query(sql))[0] as T[],
    close: async () => {
      await connection?.end();
      connection = null;
    },
    drop: async () => {
      await connection?.end();
      connection = null;
      const conn = await createConnection(MARIADB_SERVER);
      await conn.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await conn.end();
    },
  };
}

async function migrate(database: DatabaseConfig): Promise<void> {
  const dataSource = new DataSource(buildDataSourceOptions(database, ENTITIES));
  await dataSource.initialize();
  try {
    await dataSource.runMigrations();
  } finally {
    await dataSource.destroy();
  }
}

export interface Seeded {
  keys: string[];
  modelIds: string[];
  publisherId: string;
  /** The one advertiser, whose campaigns they all are. */
  advertiserId: string;
  /** Its conversions key (`adl_adv_…`), for `POST /api/conversions`. */
  advertiserKey: string;
  seconds: number;
}

const CAMPAIGN_COLUMNS = [
  'id',
  'advertiser_id',
  'name',
  'text',
  'image_url',
  'target_url',
  'keywords',
  'countries',
  'devices',
  'bid_micros',
  'budget_total_micros',
  'budget_daily_micros',
  'spent_micros',
  'spent_today_micros',
  'spent_day',
  'starts_at',
  'ends_at',
  'status',
  'created_at',
  'updated_at',
];

/**
 * One advertiser with a conversions key, one publisher with 100 models of one key each, and
 * `campaigns` campaigns.
 */
export async function seed(db: BenchDatabase, campaigns: number, models = 100): Promise<Seeded> {
  const started = Date.now();
  const now = sqlDatetime(new Date());
  const advertiserId = newId();
  await db.insert(
    'advertisers',
    ['id', 'name', 'contact_email', 'status', 'created_at', 'updated_at'],
    [[advertiserId, 'Bench advertiser', null, 'active', now, now]],
  );
  const advertiserKey = generateAdvertiserKey();
  await db.insert(
    'advertiser_api_keys',
    ['id', 'advertiser_id', 'key_hash', 'key_prefix', 'label', 'created_at', 'revoked_at'],
    [[newId(), advertiserId, advertiserKey.hash, advertiserKey.prefix, 'bench', now, null]],
  );
  const publisherId = newId();
  await db.insert(
    'publishers',
    [
      'id',
      'email',
      'name',
      'password_hash',
      'role',
      'status',
      'revenue_share_ppm',
      'created_at',
      'updated_at',
    ],
    [
      [
        publisherId,
        PUBLISHER_EMAIL,
        'Bench publisher',
        null,
        'publisher',
        'active',
        700_000,
        now,
        now,
      ],
    ],
  );
  const modelIds = Array.from({ length: models }, () => newId());
  await db.insert(
    'ai_models',
    [
      'id',
      'publisher_id',
      'name',
      'description',
      'link',
      'status',
      'deactivated_by',
      'created_at',
      'updated_at',
    ],
    modelIds.map((id, i) => [id, publisherId, `model ${i}`, null, null, 'active', null, now, now]),
  );
  const keys = modelIds.map(() => generateApiKey());
  await db.insert(
    'api_keys',
    [
      'id',
      'model_id',
      'prefix',
      'key_hash',
      'label',
      'status',
      'created_at',
      'revoked_at',
      'last_used_at',
    ],
    keys.map((key, i) => [
      newId(),
      modelIds[i],
      key.prefix,
      key.hash,
      'bench',
      'active',
      now,
      null,
      null,
    ]),
  );
  const vocabulary = vocabularyFor(campaigns);
  const createdAt = Date.now() - 86_400_000;
  const chunk = 1_000;
  for (let from = 0; from < campaigns; from += chunk) {
    const rows: Row[] = [];
    for (let index = from; index < Math.min(campaigns, from + chunk); index++) {
      const c = generateCampaign(vocabulary, index, createdAt);
      const created = sqlDatetime(new Date(c.createdAt));
      rows.push([
        c.id,
        advertiserId,
        c.name,
        c.text,
        c.imageUrl,
        c.targetUrl,
        JSON.stringify(c.keywords),
        JSON.stringify(c.countries),
        JSON.stringify(c.devices),
        c.bidMicros,
        c.budgetTotalMicros,
        c.budgetDailyMicros,
        0,
        0,
        null,
        null,
        null,
        'active',
        created,
        created,
      ]);
    }
    await db.insert('campaigns', CAMPAIGN_COLUMNS, rows);
  }
  return {
    keys: keys.map((key) => key.secret),
    modelIds,
    publisherId,
    advertiserId,
    advertiserKey: advertiserKey.secret,
    seconds: (Date.now() - started) / 1000,
  };
}
