import {
  BeforeApplicationShutdown,
  Injectable,
  Logger,
  OnApplicationBootstrap,
} from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { AppConfig } from '@/config/app-config';
import {
  type PurgeConnection,
  type PurgedTable,
  RetentionRepository,
} from './retention.repository';

const HOUR_MS = 3_600_000;
/** Longest shutdown waits for a running purge. */
export const SHUTDOWN_WAIT_MS = 5000;
/** Rows per delete statement of the purge: small enough to commit in well under a second. */
const PURGE_CHUNK_ROWS = 5000;

/** The name of the hourly purge in @nestjs/schedule's SchedulerRegistry. */
export const RETENTION_PURGE_INTERVAL = 'retention-purge';

/**
 * Deletes raw impressions and clicks (with their conversation text) older than
 * RETENTION_DAYS, at start-up and hourly. Money and reports live on in the ledger and the
 * daily roll-ups.
 */
@Injectable()
export class RetentionService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(RetentionService.name);
  private running: Promise<void> | null = null;
  /** Interrupts the running purge's statement (MySQL), if one runs. */
  private cancel: (() => Promise<unknown>) | null = null;
  /** Set once shutdown gives up waiting: the purge stops after its current chunk. */
  private stopping = false;

  constructor(
    private readonly retention: RetentionRepository,
    private readonly config: AppConfig,
  ) {}

  /**
   * Purges at start-up too: a service restarted more often than hourly would otherwise never
   * purge. Not awaited, so a long delete never holds up start-up.
   */
  onApplicationBootstrap(): void {
    void this.purgeInBackground();
  }

  @Interval(RETENTION_PURGE_INTERVAL, HOUR_MS)
  purgeHourly(): Promise<void> {
    return this.purgeInBackground();
  }

  /**
   * Lets a running purge finish before the database connections close, but waits at most
   * SHUTDOWN_WAIT_MS: a purge held up by a lock or a stalled database must not hold up
   * shutdown. Then its statement is cancelled (the database closes only once its connection
   * is free). Cutting it off loses nothing: the purge is idempotent and the next start
   * runs it again.
   */
  async beforeApplicationShutdown(): Promise<void> {
    if (!this.running) return;
    let timer: NodeJS.Timeout | undefined;
    const cutOff = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(true), SHUTDOWN_WAIT_MS);
    });
    const late = await Promise.race([this.whenIdle().then(() => false), cutOff]);
    clearTimeout(timer);
    if (!late) return;
    this.stopping = true;
    this.logger.warn(
      `retention purge still running after ${SHUTDOWN_WAIT_MS} ms; cancelling it (the next start purges again)`,
    );
    await this.cancel?.().catch((error: Error) =>
      this.logger.error('could not cancel the retention purge', error.stack),
    );
  }

  /** Resolves once the background purge running now, if any, has finished. */
  async whenIdle(): Promise<void> {
    await this.running;
  }

  /** @returns how many impressions and clicks were deleted. */
  async purge(now = new Date()): Promise<{ impressions: number; clicks: number }> {
    const cutoff = new Date(now.getTime() - this.config.retentionDays * 24 * HOUR_MS);
    // Its own connection, so that shutdown can cancel its statement on MySQL.
    const connection = await this.retention.connect();
    try {
      this.cancel = connection.cancel;
      const impressions = await this.deleteInChunks(connection, 'impressions', cutoff);
      const clicks = await this.deleteInChunks(connection, 'clicks', cutoff);
      return { impressions, clicks };
    } finally {
      this.cancel = null;
      await connection.release();
    }
  }

  /**
   * Deletes the rows older than `cutoff` a chunk at a time, each its own short statement: one
   * delete of a months-long backlog could outlast DATABASE_QUERY_TIMEOUT_MS, be rolled back,
   * and so never purge at all; chunks keep each commit small and the progress made.
   */
  private async deleteInChunks(
    connection: PurgeConnection,
    table: PurgedTable,
    cutoff: Date,
  ): Promise<number> {
    let deleted = 0;
    for (;;) {
      const chunk = await connection.idsBefore(table, cutoff, PURGE_CHUNK_ROWS);
      if (chunk.length === 0 || this.stopping) return deleted;
      await connection.delete(table, chunk);
      deleted += chunk.length;
      if (chunk.length < PURGE_CHUNK_ROWS) return deleted;
    }
  }

  /** One purge at a time; a failure is logged and the next run tries again. */
  private purgeInBackground(): Promise<void> {
    this.running ??= this.purge()
      .then(({ impressions, clicks }) =>
        this.logger.log(`retention purge deleted ${impressions} impressions, ${clicks} clicks`),
      )
      .catch((error: Error) => this.logger.error('retention purge failed', error.stack))
      .finally(() => (this.running = null));
    return this.running;
  }
}
