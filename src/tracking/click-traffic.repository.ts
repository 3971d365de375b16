import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { sqlDatetime } from '@/common/clock';
import { timestampOf } from '@/database/columns';
import { type Dialect, dialectOf } from '@/database/dialect';
import { known, type Read } from '@/database/statements';

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

/**
 * The reads behind the click rules that look past the click itself, one query each per
 * batch, for the click batch's transaction to send (see ClickRecorder).
 */
@Injectable()
export class ClickTrafficRepository {
  private readonly dialect: Dialect;

  constructor(dataSource: DataSource) {
    this.dialect = dialectOf(dataSource);
  }

  /**
   * The current status of the publishers, models and API keys of these impressions, in one
   * query. Joined through the impressions themselves, so that it needs not wait for them to
   * be read first: it goes in the same round trip as their locking read (the ids a served
   * impression names never change).
   */
  standing(impressionIds: string[]): Read<Standing> {
    const empty = (): Standing => ({
      suspendedPublishers: new Set(),
      inactiveModels: new Set(),
      revokedKeys: new Set(),
    });
    if (impressionIds.length === 0) return known(empty());
    const parts = [
      { table: 'publishers', kind: 'publisher', column: 'publisher_id' },
      { table: 'ai_models', kind: 'model', column: 'model_id' },
      { table: 'api_keys', kind: 'key', column: 'api_key_id' },
    ];
    const ids = [...new Set(impressionIds)];
    const list = ids.map(() => '?').join(', ');
    return {
      statement: {
        sql: parts
          .map(
            (part) =>
              `SELECT '${part.kind}' AS kind, t.id
                 FROM impressions i JOIN ${part.table} t ON t.id = i.${part.column}
                WHERE i.id IN (${list}) AND t.status <> 'active'`,
          )
          .join(' UNION ALL '),
        parameters: parts.flatMap(() => ids),
      },
      from: (rows) => {
        const standing = empty();
        for (const { kind, id } of rows as { kind: string; id: string }[]) {
          if (kind === 'publisher') standing.suspendedPublishers.add(id);
          else if (kind === 'model') standing.inactiveModels.add(id);
          else standing.revokedKeys.add(id);
        }
        return standing;
      },
    };
  }

  /**
   * The billed clicks of these client IPs (keyed hashes) after `since`.
   *
   * On MySQL this is a locking read of the (ip_hash, created_at) index range, so the count
   * holds when two batches with the same IP run at once (two click batches at a time, or
   * several instances): InnoDB's next-key locks cover each IP's range up to the next IP,
   * where its new clicks are inserted. A concurrent batch with one of these IPs then waits
   * for this one to commit and reads its clicks, or both insert into the range and one is
   * rolled back as a deadlock and run again whole (StatementTransactions.run), seeing the
   * other's committed clicks. A plain read would let both bill. SQLite has one writer at a
   * time.
   */
  billedByIp(ipHashes: string[], since: Date): Read<BilledByIp[]> {
    if (ipHashes.length === 0) return known([]);
    const hashes = [...new Set(ipHashes)].sort();
    const mysql = this.dialect === 'mysql';
    return {
      statement: {
        // The index is forced: a locking read by any other plan would lock far more rows.
        sql: `SELECT ip_hash, campaign_id, created_at
                FROM clicks${mysql ? ' FORCE INDEX (idx_clicks_ip_created)' : ''}
               WHERE ip_hash IN (${hashes.map(() => '?').join(', ')}) AND created_at > ?
                 AND status = 'billed'${mysql ? ' FOR UPDATE' : ''}`,
        parameters: [...hashes, sqlDatetime(since)],
      },
      from: (rows) =>
        (rows as { ip_hash: string; campaign_id: string; created_at: Date | string }[]).map(
          (row) => ({
            ipHash: row.ip_hash,
            campaignId: row.campaign_id,
            at: timestampOf(row.created_at),
          }),
        ),
    };
  }
}
