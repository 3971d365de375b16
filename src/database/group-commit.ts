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
}

interface Pending<Item, Result> {
  item: Item;
  resolve: (result: Result) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit: each `submit()` resolves only once its item is committed, while concurrent
 * submissions share one transaction per batch instead of one each. A batch that fails is
 * written again item by item, so one bad item fails only its own caller, never its batch
 * mates.
 */
export class GroupCommit<Item, Result> {
  private queue: Pending<Item, Result>[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | null = null;
  /** Committed batches and items since start: how well the batching works. */
  readonly stats = { batches: 0, items: 0 };

  constructor(private readonly options: GroupCommitOptions<Item, Result>) {}

  submit(item: Item): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
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

  private async writeBatch(batch: Pending<Item, Result>[]): Promise<void> {
    try {
      const results = await this.options.write(batch.map((p) => p.item));
      this.stats.batches += 1;
      this.stats.items += batch.length;
      batch.forEach((pending, i) => pending.resolve(results[i]));
    } catch (error) {
      if (batch.length === 1) {
        batch[0].reject(error);
        return;
      }
      this.options.onBatchFailure?.(error, batch.length);
      for (const pending of batch) await this.writeBatch([pending]);
    }
  }
}
