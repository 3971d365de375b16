import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { sqlDatetime } from '@/common/clock';
import { timestampOf } from '@/database/columns';
import { dialectOf } from '@/database/dialect';

/** Who earns from a batch's impressions and may no longer: ids whose row is not active now. */
export interface Standing {
  suspendedPublishers: Set<string>;
  inactiveModels: Set<string>;
  revokedKeys: Set<string>;
}

/** An earlier billed click, as the per-IP limits count it. */
export interface BilledByIp {
  ipHash: string;
  campaignId: string;
  at: Date;
}

/** The reads behind the click rules that look past the click itself, one query each per batch. */
@Injectable()
export class ClickTrafficRepository {
  /** The current status of the publishers, models and API keys named, in one query. */
  async standing(
    manager: EntityManager,
    ids: { publisherIds: string[]; modelIds: string[]; keyIds: string[] },
  ): Promise<Standing> {
    const parts: { table: string; kind: string; ids: string[] }[] = [
      { table: 'publishers', kind: 'publisher', ids: ids.publisherIds },
      { table: 'ai_models', kind: 'model', ids: ids.modelIds },
      { table: 'api_keys', kind: 'key', ids: ids.keyIds },
    ].filter((part) => part.ids.length > 0);
    const standing: Standing = {
      suspendedPublishers: new Set(),
      inactiveModels: new Set(),
      revokedKeys: new Set(),
    };
    if (parts.length === 0) return standing;
    const rows: { kind: string; id: string }[] = await manager.query(
      parts
        .map(
          (part) =>
            `SELECT '${part.kind}' AS kind, id FROM ${part.table}
              WHERE status <> 'active' AND id IN (${part.ids.map(() => '?').join(', ')})`,
        )
        .join(' UNION ALL '),
      parts.flatMap((part) => part.ids),
    );
    for (const { kind, id } of rows) {
      if (kind === 'publisher') standing.suspendedPublishers.add(id);
      else if (kind === 'model') standing.inactiveModels.add(id);
      else standing.revokedKeys.add(id);
    }
    return standing;
  }

  /**
   * The billed clicks of these client IPs (keyed hashes) after `since`.
   *
   * On MySQL this is a locking read of the (ip_hash, created_at) index range, so the count
   * holds when two batches with the same IP run at once (two click batches at a time, or
   * several instances): InnoDB's next-key locks cover each IP's range up to the next IP,
   * where its new clicks are inserted. A concurrent batch with one of these IPs then waits
   * for this one to commit and reads its clicks, or both insert into the range and one is
   * rolled back as a deadlock and run again whole (transactionWithRetry), seeing the other's
   * committed clicks. A plain read would let both bill. SQLite has one writer at a time.
   */
  async billedByIp(manager: EntityManager, ipHashes: string[], since: Date): Promise<BilledByIp[]> {
    if (ipHashes.length === 0) return [];
    const hashes = [...ipHashes].sort();
    const mysql = dialectOf(manager) === 'mysql';
    const rows: { ip_hash: string; campaign_id: string; created_at: Date | string }[] =
      await manager.query(
        // The index is forced: a locking read by any other plan would lock far more rows.
        `SELECT ip_hash, campaign_id, created_at
           FROM clicks${mysql ? ' FORCE INDEX (idx_clicks_ip_created)' : ''}
          WHERE ip_hash IN (${hashes.map(() => '?').join(', ')}) AND created_at > ?
            AND status = 'billed'${mysql ? ' FOR UPDATE' : ''}`,
        [...hashes, sqlDatetime(since)],
      );
    return rows.map((row) => ({
      ipHash: row.ip_hash,
      campaignId: row.campaign_id,
      at: timestampOf(row.created_at),
    }));
  }
}

/** MySQL returns DATETIME as a Date (timezone 'Z'); SQLite as the UTC text that was written. */
