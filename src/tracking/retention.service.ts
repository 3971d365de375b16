import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { DataSource, LessThan } from 'typeorm';
import { AppConfig } from '@/config/app-config';
import { Click } from './entities/click.entity';
import { Impression } from './entities/impression.entity';

const HOUR_MS = 3_600_000;

/**
 * Deletes raw impressions and clicks (with their conversation text) older than
 * RETENTION_DAYS, hourly. Money and reports live on in the ledger and the daily roll-ups.
 */
@Injectable()
export class RetentionService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(RetentionService.name);
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.purge().catch((error: Error) =>
        this.logger.error('retention purge failed', error.stack),
      );
    }, HOUR_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
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
}
