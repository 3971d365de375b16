import { Logger } from '@nestjs/common';
import { DatabaseUnavailableError, isDatabaseUnavailable } from './database-errors';

export interface GroupCommitOptions<Item, Result> {
  /** Most items written in one batch. */
  maxBatch: number;
  /** How long the first item of a batch waits for others to join, in ms. */
  flushMs: number;
  /** Batches written at once (on MySQL a second may commit while the first waits on fsync). */
  maxConcurrent: number;
  /** Writes one batch in one transaction; returns each item's result, in order. */
  write: (items: Item[]) => Promise<Result[]>;
  /** Told when a batch failed and its items are written again one by one. */
  onBatchFailure?: (error: unknown, size: number) => void;
  /**
   * After a write the database did not answer (its commit may have landed unseen), finds
   * which of these items are already stored and their results, by index. They are answered
   * from it instead of being written again; without it, a batch is simply written again.
   */
  findCommitted?: (items: Item[]) => Promise<Map<number, Result>>;
  /**
   * How long a submitter waits for its commit before it is told the database is unavailable
   * (DatabaseUnavailableError). An item still queued then is withdrawn and never written;
   * one already sent is never written again. Without a deadline a submitter waits while a
   * database that does not answer is retried (`retryDelaysMs`).
   */
  deadlineMs?: number;
  /** Pauses before writing a batch again after the database did not answer. */
  retryDelaysMs?: number[];
  /** What the items are, for log lines ("clicks"). */
  name?: string;
  /** Told of each committed batch: its size and how long its write took (for metrics). */
  onCommit?: (size: number, seconds: number) => void;
}

/**
 * About 30 s of retries in all: longer than a database restart or a failover usually takes.
 * Not the retry of contention (`transactionWithRetry`, StatementTransactions), which each
 * `write` does inside: a deadlock is answered at once and a rerun succeeds within
 * milliseconds, while a database that did not answer may have committed unseen (so the
 * batch is looked up before it is written again) and needs seconds, not milliseconds.
 */
export const UNAVAILABLE_RETRY_DELAYS_MS = [250, 500, 1000, 2000, 4000, 8000, 15_000];

interface Pending<Item, Result> {
  item: Item;
  resolve: (result: Result) => void;
  reject: (error: unknown) => void;
  /** Answered (committed, failed or past its deadline): nothing more is written for it. */
  settled: boolean;
  timer: NodeJS.Timeout | null;
}

/**
 * Group commit: each `submit()` resolves only once its item is committed, while concurrent
 * submissions share one transaction per batch instead of one each. A batch that fails is
 * written again item by item, so one bad item fails only its own caller, never its batch
 * mates. A batch the database did not answer is not split (each item would wait as long):
 * it is written again whole, after a pause, for the items whose submitters still wait. Its
 * commit may have landed unseen, so first `findCommitted` looks its items up: a batch is one
 * transaction, so they are all stored (and answered from the stored rows) or none is.
 */
export class GroupCommit<Item, Result> {
  private readonly logger = new Logger('GroupCommit');
  private queue: Pending<Item, Result>[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | null = null;
  /** Committed batches and items since start, and items finally not written (`failed`). */
  readonly stats = { batches: 0, items: 0, failed: 0 };

  constructor(private readonly options: GroupCommitOptions<Item, Result>) {}

  submit(item: Item): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      const pending: Pending<Item, Result> = { item, resolve, reject, settled: false, timer: null };
      const { deadlineMs } = this.options;
      if (deadlineMs !== undefined) {
        pending.timer = setTimeout(() => this.giveUp(pending, deadlineMs), deadlineMs);
      }
      this.queue.push(pending);
      if (this.queue.length >= this.options.maxBatch) this.startFlush();
      // A short wait lets concurrent requests join the batch; none while every slot is
      // busy, because a finishing batch picks the queue up as soon as it commits.
      else if (!this.timer && this.inFlight.size < this.options.maxConcurrent) {
        this.timer = setTimeout(() => this.startFlush(), this.options.flushMs);
      }
    });
  }

  /** Writes everything queued and waits for every batch in flight. */
  async drain(): Promise<void> {
    this.startFlush();
    while (this.inFlight.size > 0) await Promise.all(this.inFlight);
  }

  private startFlush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    while (this.queue.length > 0 && this.inFlight.size < this.options.maxConcurrent) {
      const batch = this.queue.splice(0, this.options.maxBatch);
      const write: Promise<void> = this.writeBatch(batch).finally(() => {
        this.inFlight.delete(write);
        if (this.queue.length > 0) this.startFlush();
      });
      this.inFlight.add(write);
    }
  }

  /** The submitter stops waiting; a queued item leaves the queue unwritten. */
  private giveUp(pending: Pending<Item, Result>, deadlineMs: number): void {
    const queued = this.queue.indexOf(pending);
    if (queued >= 0) this.queue.splice(queued, 1);
    settle(pending, () =>
      pending.reject(
        new DatabaseUnavailableError(`the database did not commit within ${deadlineMs} ms`),
      ),
    );
  }

  /** `unanswered`: an earlier write of these items got no answer and may have committed. */
  private async writeBatch(batch: Pending<Item, Result>[], unanswered = false): Promise<void> {
    const delays = this.options.retryDelaysMs ?? UNAVAILABLE_RETRY_DELAYS_MS;
    for (let attempt = 0; ; attempt++) {
      let waiting = batch.filter((pending) => !pending.settled);
      if (waiting.length === 0) return;
      try {
        if (unanswered) waiting = await this.answerCommitted(waiting);
        if (waiting.length === 0) return;
        const started = performance.now();
        const results = await this.options.write(waiting.map((p) => p.item));
        this.stats.batches += 1;
        this.stats.items += waiting.length;
        this.options.onCommit?.(waiting.length, (performance.now() - started) / 1000);
        waiting.forEach((pending, i) => settle(pending, () => pending.resolve(results[i])));
        return;
      } catch (error) {
        if (isDatabaseUnavailable(error)) {
          unanswered = true;
          // Submitters with a deadline got their answer or get it now; the rest wait on.
          const delay = this.options.deadlineMs === undefined ? delays[attempt] : undefined;
          if (delay === undefined) return this.fail(waiting, error, attempt > 0);
          this.logger.warn(
            `the database did not answer; writing ${waiting.length} ${this.label} again in ${delay} ms (${(error as Error).message})`,
          );
          await new Promise((resolve) => setTimeout(resolve, delay));
          continue;
        }
        if (waiting.length === 1) return this.fail(waiting, error, false);
        this.options.onBatchFailure?.(error, waiting.length);
        for (const pending of waiting) await this.writeBatch([pending], unanswered);
        return;
      }
    }
  }

  /** Answers the items an unanswered write did commit; returns those still to write. */
  private async answerCommitted(
    waiting: Pending<Item, Result>[],
  ): Promise<Pending<Item, Result>[]> {
    if (!this.options.findCommitted) return waiting;
    const stored = await this.options.findCommitted(waiting.map((pending) => pending.item));
    if (stored.size === 0) return waiting;
    this.stats.items += stored.size;
    this.logger.warn(
      `${stored.size} ${this.label} were committed by a write the database did not confirm; answered from the stored rows, not written again`,
    );
    stored.forEach((result, i) => settle(waiting[i], () => waiting[i].resolve(result)));
    return waiting.filter((_, i) => !stored.has(i));
  }

  private fail(items: Pending<Item, Result>[], error: unknown, retried: boolean): void {
    const live = items.filter((pending) => !pending.settled);
    this.stats.failed += live.length;
    if (retried) {
      this.logger.error(
        `gave up writing ${live.length} ${this.label}: the database did not answer (${(error as Error).message})`,
      );
    }
    live.forEach((pending) => settle(pending, () => pending.reject(error)));
  }

  private get label(): string {
    return this.options.name ?? 'items';
  }
}

function settle<Item, Result>(pending: Pending<Item, Result>, answer: () => void): void {
  if (pending.settled) return;
  pending.settled = true;
  if (pending.timer) clearTimeout(pending.timer);
  answer();
}
