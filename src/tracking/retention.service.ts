import {
  BeforeApplicationShutdown,
  Injectable,
  Logger,
  OnApplicationBootstrap,
} from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { DataSource, LessThan } from 'typeorm';
import { AppConfig } from '@/config/app-config';
import { Click } from './entities/click.entity';
import { Impression } from './entities/impression.entity';

const HOUR_MS = 3_600_000;

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

  constructor(
    private readonly dataSource: DataSource,
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

  /** Lets a running purge finish before the database connections close. */
  beforeApplicationShutdown(): Promise<void> {
    return this.whenIdle();
  }

  /** Resolves once the background purge running now, if any, has finished. */
  async whenIdle(): Promise<void> {
    await this.running;
  }

  /** @returns how many impressions and clicks were deleted. */
  async purge(now = new Date()): Promise<{ impressions: number; clicks: number }> {
    const cutoff = new Date(now.getTime() - this.config.retentionDays * 24 * HOUR_MS);
    const impressions = await this.dataSource
      .getRepository(Impression)
      .delete({ createdAt: LessThan(cutoff) });
    const clicks = await this.dataSource
      .getRepository(Click)
      .delete({ createdAt: LessThan(cutoff) });
    return { impressions: impressions.affected ?? 0, clicks: clicks.affected ?? 0 };
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
