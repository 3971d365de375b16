import { Injectable } from '@nestjs/common';
import { EntityManager, In, MoreThan } from 'typeorm';
import { Click } from './entities/click.entity';

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

  /** The billed clicks of these client IPs (keyed hashes) after `since`. */
  async billedByIp(manager: EntityManager, ipHashes: string[], since: Date): Promise<BilledByIp[]> {
    if (ipHashes.length === 0) return [];
    const clicks = await manager.find(Click, {
      select: { ipHash: true, campaignId: true, createdAt: true },
      where: { status: 'billed', ipHash: In(ipHashes), createdAt: MoreThan(since) },
    });
    return clicks.map((c) => ({ ipHash: c.ipHash!, campaignId: c.campaignId, at: c.createdAt }));
  }
}
