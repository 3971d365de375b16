import {
  Injectable,
  Logger,
  OnApplicationShutdown,
  OnModuleDestroy,
  OnModuleInit,
} from '@nestjs/common';
import { Clock, utcDay } from '@/common/clock';
import { AppConfig } from '@/config/app-config';
import type { KeyCredential } from '@/publishers/publisher-credentials';
import { FillStatsRepository } from './fill-stats.repository';
import { type FillOutcome, FillTally } from './fill-outcomes';

const DAY_MS = 86_400_000;

/**
 * Counts how each fetch-ads request ended (an ad served, or why not) per UTC day, model and
 * outcome, for the fill rate and no-fills of `/api/stats`. A request only increments a
 * counter in memory; the counts are added to `daily_fill_stats` every
 * FILL_STATS_FLUSH_SECONDS and once more at shutdown, after the HTTP server has answered its
 * last request and before the database closes. No request waits for that write or fails
 * because of it: a failed write keeps the counts for the next one.
 */
@Injectable()
export class FillStatsRecorder implements OnModuleInit, OnModuleDestroy, OnApplicationShutdown {
  private readonly logger = new Logger(FillStatsRecorder.name);
  private readonly tally = new FillTally();
  private timer: NodeJS.Timeout | null = null;
  /** The write under way, if any; the next one starts after it. */
  private flushing: Promise<void> | null = null;
  /** The last write failed: said once in the log, not at every interval. */
  private failing = false;
  /** Today as days since the epoch and as `YYYY-MM-DD`, so most requests format no date. */
  private dayNumber = -1;
  private dayText = '';

  constructor(
    private readonly repository: FillStatsRepository,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.timer = setInterval(() => {
      // A slow database must not pile up writes: the running one takes what came meanwhile.
      if (!this.flushing) void this.flush();
    }, this.config.fillStatsFlushMs);
    // Pending counts must not keep a process alive that is otherwise done.
    this.timer.unref();
  }

  onModuleDestroy(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /**
   * Nest runs this after the HTTP server closed, so every answered request is counted, and
   * before TypeORM's own hook (a global module's, run last) closes the connections.
   */
  async onApplicationShutdown(): Promise<void> {
    await this.flush();
    if (!this.tally.empty) {
      this.logger.error('could not write the last fill statistics before shutdown; they are lost');
    }
  }

  /** Counts one request's outcome; a test key's request counts as `test`, whatever it got. */
  record(
    caller: Pick<KeyCredential, 'keyKind' | 'publisherId' | 'modelId'>,
    outcome: FillOutcome,
  ): void {
    const counted = caller.keyKind === 'test' ? 'test' : outcome;
    this.tally.add(this.today(), caller.publisherId, caller.modelId, counted);
  }

  /** Writes what has been counted so far (after a write already under way). */
  async flush(): Promise<void> {
    const next = (this.flushing ?? Promise.resolve()).then(() => this.write());
    this.flushing = next;
    try {
      await next;
    } finally {
      if (this.flushing === next) this.flushing = null;
    }
  }

  private today(): string {
    const ms = this.clock.now().getTime();
    const day = Math.floor(ms / DAY_MS);
    if (day !== this.dayNumber) {
      this.dayNumber = day;
      this.dayText = utcDay(new Date(ms));
    }
    return this.dayText;
  }

  private async write(): Promise<void> {
    if (this.tally.empty) return;
    const counts = this.tally.take();
    let written = 0;
    try {
      await this.repository.add(counts, (n) => (written += n));
      if (this.failing) this.logger.log('fill statistics are written again');
      this.failing = false;
    } catch (error) {
      this.tally.restore(counts.slice(written));
      if (!this.failing) {
        this.logger.error(
          'could not write fill statistics; the counts are kept and the write is tried again',
          (error as Error).stack,
        );
      }
      this.failing = true;
    }
  }
}
