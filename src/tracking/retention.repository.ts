import { Injectable } from '@nestjs/common';
import { DataSource, In, LessThan, type QueryRunner } from 'typeorm';
import { dialectOf } from '@/database/dialect';
import { Click } from './entities/click.entity';
import { Impression } from './entities/impression.entity';

/** The raw tables that retention purges. */
export type PurgedTable = 'impressions' | 'clicks';

const ENTITIES = { impressions: Impression, clicks: Click };

/** A purge's own database connection, whose running statement another one can cancel. */
export interface PurgeConnection {
  /** Cancels the statement running on it (MySQL); null where none can be cancelled. */
  readonly cancel: (() => Promise<unknown>) | null;
  /** The ids of up to `limit` rows of `table` created before `cutoff`. */
  idsBefore(table: PurgedTable, cutoff: Date, limit: number): Promise<string[]>;
  delete(table: PurgedTable, ids: string[]): Promise<void>;
  release(): Promise<void>;
}

/** The retention purge's queries. */
@Injectable()
export class RetentionRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** A connection of its own, so that shutdown can cancel its statement on MySQL. */
  async connect(): Promise<PurgeConnection> {
    const runner = this.dataSource.createQueryRunner();
    try {
      await runner.connect();
      return { cancel: await this.canceller(runner), ...this.purgeOn(runner) };
    } catch (error) {
      await runner.release();
      throw error;
    }
  }

  private async canceller(runner: QueryRunner): Promise<(() => Promise<unknown>) | null> {
    if (dialectOf(this.dataSource) !== 'mysql') return null;
    const [{ id }] = (await runner.query('SELECT CONNECTION_ID() AS id')) as { id: number }[];
    return () => this.dataSource.query(`KILL QUERY ${Number(id)}`);
  }

  private purgeOn(runner: QueryRunner): Omit<PurgeConnection, 'cancel'> {
    const repository = (table: PurgedTable) =>
      runner.manager.getRepository<{ id: string; createdAt: Date }>(ENTITIES[table]);
    return {
      idsBefore: async (table, cutoff, limit) => {
        const rows = await repository(table).find({
          select: { id: true },
          where: { createdAt: LessThan(cutoff) },
          take: limit,
        });
        return rows.map((row) => row.id);
      },
      delete: async (table, ids) => {
        await repository(table).delete({ id: In(ids) });
      },
      release: () => runner.release(),
    };
  }
}
