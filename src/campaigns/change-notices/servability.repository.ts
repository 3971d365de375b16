import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { EntityManager, Repository } from 'typeorm';
import type { Statement } from '@/database/statements';
import {
  SERVABILITY_ROW_ID,
  ServabilityVersion,
} from '@/campaigns/entities/servability-version.entity';

/** The servability version as the probe reads it (see `ServabilityVersion`). */
export interface ServabilityCounts {
  changes: number;
  exhaustions: number;
}

/**
 * The one row of `servability_version`. Its writes run in the caller's transaction, which
 * then holds the row until it commits: callers write it after their other locks (the last
 * statement of a campaign or advertiser change; in a click batch, only when a budget runs
 * out, in its writes after every campaign row it locked). Probes read the row without a
 * lock and never wait.
 */
@Injectable()
export class ServabilityRepository {
  constructor(
    @InjectRepository(ServabilityVersion)
    private readonly versions: Repository<ServabilityVersion>,
  ) {}

  /** One row by its primary key: O(1), whatever the number of campaigns. */
  async read(): Promise<ServabilityCounts> {
    const row = await this.versions.findOneBy({ id: SERVABILITY_ROW_ID });
    // The migration that creates the table inserts the row; nothing deletes it.
    if (!row) throw new Error('servability_version has no row: are the migrations run?');
    return { changes: row.changeCount, exhaustions: row.exhaustionCount };
  }

  /** Counts a change that may alter what is servable, in the caller's transaction. */
  async countChange(manager: EntityManager): Promise<void> {
    await manager.query(
      `UPDATE servability_version SET change_count = change_count + 1 WHERE id = ?`,
      [SERVABILITY_ROW_ID],
    );
  }

  /** Counts campaigns that have just run out of budget, for the caller to send; null: none. */
  exhaustionsStatement(campaigns: number): Statement | null {
    if (campaigns === 0) return null;
    return {
      sql: `UPDATE servability_version SET exhaustion_count = exhaustion_count + ? WHERE id = ?`,
      parameters: [campaigns, SERVABILITY_ROW_ID],
    };
  }
}
