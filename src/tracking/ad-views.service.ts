import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock } from '@/common/clock';
import { ProblemException } from '@/common/problem';
import { AppConfig } from '@/config/app-config';
import { databaseDeadlines } from '@/database/data-source-options';
import { GroupCommit } from '@/database/group-commit';
import { StatementTransactions } from '@/database/sql';
import type { Decided, ReadAll, Statement } from '@/database/statements';
import { EarningsService } from '@/earnings/earnings.service';
import { AdViewLinks } from './ad-view-link';
import { ImpressionsRepository, type ViewedImpression } from './impressions.repository';

interface View {
  impressionId: string;
  at: Date;
}

/** `counted`: this call recorded the view; `repeat`: it was recorded before. */
type ViewOutcome = 'counted' | 'repeat' | 'expired';

/**
 * Records that a served ad was seen (its `view_url` called), at most once per impression
 * and only within VIEW_WINDOW_MINUTES of the serve. By group commit, like clicks: each call
 * resolves once its batch is committed, and concurrent calls share one transaction, which
 * reads the impressions (locked on MySQL), decides in arrival order, and writes viewed_at
 * with the roll-up's increment. A batch written again after the database did not answer
 * decides again from what was committed, so a view is never counted twice.
 */
@Injectable()
export class AdViewsService implements OnApplicationShutdown {
  private readonly logger = new Logger(AdViewsService.name);
  private readonly batches: GroupCommit<View, ViewOutcome>;
  private readonly transactions: StatementTransactions;
  private readonly windowMs: number;

  constructor(
    dataSource: DataSource,
    private readonly links: AdViewLinks,
    private readonly impressions: ImpressionsRepository,
    private readonly earnings: EarningsService,
    private readonly clock: Clock,
    config: AppConfig,
  ) {
    this.windowMs = config.viewWindowMs;
    this.transactions = new StatementTransactions(dataSource, databaseDeadlines(config));
    this.batches = new GroupCommit({
      name: 'views',
      deadlineMs: config.databaseTimeoutMs,
      maxBatch: config.clickBatchSize,
      flushMs: config.clickFlushMs,
      maxConcurrent: config.database.type === 'mysql' ? 2 : 1,
      write: (views) => this.transactions.run((read) => this.decideAndStore(read, views)),
      onBatchFailure: (error, size) =>
        this.logger.error(
          `could not record ${size} views in one batch; recording them one by one`,
          (error as Error).stack,
        ),
    });
  }

  /** Resolves once the view is recorded (or was before); 404 for a forged token, 410 too late. */
  async record(token: string): Promise<void> {
    const impressionId = this.links.verify(token);
    if (impressionId === null) {
      throw ProblemException.notFound(
        'view_not_found',
        'No served ad has this view URL: it is altered or mistyped.',
      );
    }
    const outcome = await this.batches.submit({ impressionId, at: this.clock.now() });
    if (outcome === 'expired') {
      throw new ProblemException(
        410,
        'view_expired',
        'This ad was served too long ago for its view to count.',
      );
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.batches.drain();
    await this.transactions.close();
  }

  private async decideAndStore(read: ReadAll, views: View[]): Promise<Decided<ViewOutcome[]>> {
    const [impressions] = await read([
      this.impressions.lockForViews([...new Set(views.map((v) => v.impressionId))]),
    ]);
    const viewed = new Map<string, Date>();
    const counted: ViewedImpression[] = [];
    const outcomes = views.map(({ impressionId, at }): ViewOutcome => {
      const impression = impressions.get(impressionId);
      // A signed token names a committed impression: gone means retention purged it, long
      // after any window.
      if (!impression || at.getTime() - impression.createdAt.getTime() > this.windowMs) {
        return 'expired';
      }
      if (impression.viewedAt !== null || viewed.has(impressionId)) return 'repeat';
      viewed.set(impressionId, at);
      counted.push(impression);
      return 'counted';
    });
    const writes = [
      this.impressions.markViewedStatement(viewed),
      this.earnings.viewsStatement(counted),
    ].filter((statement): statement is Statement => statement !== null);
    return { result: outcomes, writes };
  }
}
