import { sqlDatetime } from '@/common/clock';
import { newId } from '@/database/columns';
import { IMPRESSION_COLUMNS } from '@/tracking/impressions.repository';
import type { BenchDatabase, Row, Seeded } from '../seed/database';

/**
 * The raw-insert baseline: `statements` multi-row INSERTs of `batch` impression rows (as
 * the service writes them: same table, same indexes, a 700-character conversation) over one
 * mysql2 connection, one after another. Rows per second.
 */
export async function rawImpressionInsertRate(
  db: BenchDatabase,
  seeded: Seeded,
  batch: number,
  seconds: number,
): Promise<{ rowsPerSecond: number; rows: number }> {
  const conversation = 'which gpu should I rent to train my model '.repeat(17);
  let rows = 0;
  const deadline = Date.now() + seconds * 1000;
  const started = process.hrtime.bigint();
  while (Date.now() < deadline) {
    const at = sqlDatetime(new Date());
    const values: Row[] = [];
    for (let i = 0; i < batch; i++) {
      values.push([
        newId(),
        at,
        seeded.modelIds[i % seeded.modelIds.length],
        seeded.publisherId,
        'bench-00000001',
        null,
        450_000,
        700_000,
        'DE',
        'mobile',
        'Berlin, Germany',
        'mobile',
        'gpu, machine learning',
        conversation,
        null,
        0,
        // "Why this ad", as fetch-ads records it (src/tracking/explanation.ts).
        450_000,
        '{"k":["gpu"],"c":["machine learning"]}',
        'DE;mobile',
      ]);
    }
    await db.insert('impressions', IMPRESSION_COLUMNS, values);
    rows += batch;
  }
  const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
  return { rowsPerSecond: rows / elapsed, rows };
}
