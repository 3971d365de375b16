import { DatabaseUnavailableError } from './database-errors';
import { GroupCommit } from './group-commit';

/** A group commit whose "database" is an array; `poison` items make a batch fail. */
function recorder(options: { maxBatch?: number; poison?: (n: number) => boolean } = {}) {
  const committed: number[][] = [];
  const commit = new GroupCommit<number, string>({
    maxBatch: options.maxBatch ?? 100,
    flushMs: 1,
    maxConcurrent: 1,
    write: (items) => {
      if (items.some((n) => options.poison?.(n))) {
        return Promise.reject(new Error(`poison in ${items.join(',')}`));
      }
      committed.push(items);
      return Promise.resolve(items.map((n) => `ok ${n}`));
    },
  });
  return { commit, committed };
}

describe('GroupCommit', () => {
  it('writes concurrent submissions in shared batches and answers each with its own result', async () => {
    const { commit, committed } = recorder();
    const results = await Promise.all([1, 2, 3, 4, 5].map((n) => commit.submit(n)));
    expect(results).toEqual(['ok 1', 'ok 2', 'ok 3', 'ok 4', 'ok 5']);
    expect(committed).toEqual([[1, 2, 3, 4, 5]]);
    expect(commit.stats).toEqual({ batches: 1, items: 5, failed: 0 });
  });

  it('never puts more than maxBatch items in one batch', async () => {
    const { commit, committed } = recorder({ maxBatch: 2 });
    await Promise.all([1, 2, 3, 4, 5].map((n) => commit.submit(n)));
    expect(committed.map((batch) => batch.length)).toEqual([2, 2, 1]);
  });

  it('fails only the bad item of a failed batch: the others are written one by one', async () => {
    const { commit, committed } = recorder({ poison: (n) => n === 3 });
    const results = await Promise.allSettled([1, 2, 3, 4].map((n) => commit.submit(n)));
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
    ]);
    expect(committed).toEqual([[1], [2], [4]]);
  });

  it('writes what is queued when drained', async () => {
    const { commit, committed } = recorder();
    const pending = commit.submit(7);
    await commit.drain();
    expect(committed).toEqual([[7]]);
    await expect(pending).resolves.toBe('ok 7');
  });

  describe('when the database does not answer', () => {
    const unavailable = () => new DatabaseUnavailableError('no answer');

    it('writes a batch again whole, never item by item, until it commits', async () => {
      const attempts: number[][] = [];
      const commit = new GroupCommit<number, string>({
        maxBatch: 10,
        flushMs: 0,
        maxConcurrent: 1,
        retryDelaysMs: [1, 1, 1],
        write: (items) => {
          attempts.push(items);
          if (attempts.length < 3) return Promise.reject(unavailable());
          return Promise.resolve(items.map((n) => `ok ${n}`));
        },
      });
      const results = await Promise.all([1, 2].map((n) => commit.submit(n)));
      expect(results).toEqual(['ok 1', 'ok 2']);
      expect(attempts).toEqual([
        [1, 2],
        [1, 2],
        [1, 2],
      ]);
    });

    it('gives up after its retries and counts what it could not write', async () => {
      const commit = new GroupCommit<number, string>({
        maxBatch: 10,
        flushMs: 0,
        maxConcurrent: 1,
        retryDelaysMs: [1, 1],
        write: () => Promise.reject(unavailable()),
      });
      const results = await Promise.allSettled([1, 2].map((n) => commit.submit(n)));
      expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
      expect(commit.stats.failed).toBe(2);
    });

    /** A "database" whose commits may land while their answer is lost on the way back. */
    function unconfirmed(answerLost: (attempt: number) => boolean, findFails = 0) {
      const stored = new Map<number, string>();
      const attempts: number[][] = [];
      let lookups = 0;
      const commit = new GroupCommit<number, string>({
        maxBatch: 10,
        flushMs: 0,
        maxConcurrent: 1,
        retryDelaysMs: [1, 1, 1],
        write: (items) => {
          attempts.push(items);
          if (items.some((n) => stored.has(n))) {
            return Promise.reject(new Error('duplicate primary key'));
          }
          items.forEach((n) => stored.set(n, `stored ${n}`));
          if (answerLost(attempts.length)) return Promise.reject(unavailable());
          return Promise.resolve(items.map((n) => `ok ${n}`));
        },
        findCommitted: (items) => {
          lookups += 1;
          if (lookups <= findFails) return Promise.reject(unavailable());
          const found = new Map<number, string>();
          items.forEach((n, i) => stored.has(n) && found.set(i, stored.get(n)!));
          return Promise.resolve(found);
        },
      });
      return { commit, attempts, lookups: () => lookups };
    }

    it('answers a batch whose commit landed unseen from the stored rows, never writing it again', async () => {
      const { commit, attempts } = unconfirmed((attempt) => attempt === 1);
      const results = await Promise.all([1, 2].map((n) => commit.submit(n)));
      expect(results).toEqual(['stored 1', 'stored 2']);
      expect(attempts).toEqual([[1, 2]]);
      expect(commit.stats).toEqual({ batches: 0, items: 2, failed: 0 });
    });

    it('writes a batch again when the unanswered write stored none of it', async () => {
      const attempts: number[][] = [];
      const lookedUp: number[][] = [];
      const commit = new GroupCommit<number, string>({
        maxBatch: 10,
        flushMs: 0,
        maxConcurrent: 1,
        retryDelaysMs: [1],
        write: (items) => {
          attempts.push(items);
          if (attempts.length === 1) return Promise.reject(unavailable());
          return Promise.resolve(items.map((n) => `ok ${n}`));
        },
        findCommitted: (items) => {
          lookedUp.push(items);
          return Promise.resolve(new Map());
        },
      });
      const results = await Promise.all([1, 2].map((n) => commit.submit(n)));
      expect(results).toEqual(['ok 1', 'ok 2']);
      expect(attempts).toEqual([
        [1, 2],
        [1, 2],
      ]);
      expect(lookedUp).toEqual([[1, 2]]);
      expect(commit.stats).toEqual({ batches: 1, items: 2, failed: 0 });
    });

    it('looks again later when the lookup itself gets no answer', async () => {
      const { commit, attempts, lookups } = unconfirmed((attempt) => attempt === 1, 1);
      await expect(commit.submit(1)).resolves.toBe('stored 1');
      expect(attempts).toEqual([[1]]);
      expect(lookups()).toBe(2);
      expect(commit.stats.failed).toBe(0);
    });

    it('without a lookup, a rewrite of a batch committed unseen fails and counts its items', async () => {
      const attempts: number[][] = [];
      const stored = new Set<number>();
      const commit = new GroupCommit<number, string>({
        maxBatch: 10,
        flushMs: 0,
        maxConcurrent: 1,
        retryDelaysMs: [1],
        write: (items) => {
          attempts.push(items);
          if (items.some((n) => stored.has(n))) return Promise.reject(new Error('duplicate'));
          items.forEach((n) => stored.add(n));
          return Promise.reject(unavailable());
        },
      });
      const results = await Promise.allSettled([1, 2].map((n) => commit.submit(n)));
      expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
      expect(commit.stats.failed).toBe(2);
    });

    it('answers a submitter past its deadline and never writes its queued item', async () => {
      const written: number[][] = [];
      let release!: () => void;
      const stalled = new Promise<void>((resolve) => (release = resolve));
      const commit = new GroupCommit<number, string>({
        maxBatch: 10,
        flushMs: 0,
        maxConcurrent: 1,
        deadlineMs: 20,
        write: async (items) => {
          await stalled;
          written.push(items);
          return items.map((n) => `ok ${n}`);
        },
      });
      const first = commit.submit(1);
      await new Promise((resolve) => setTimeout(resolve, 5));
      // Queued behind the stalled batch, which holds the only slot.
      const second = commit.submit(2);
      await expect(first).rejects.toBeInstanceOf(DatabaseUnavailableError);
      await expect(second).rejects.toBeInstanceOf(DatabaseUnavailableError);
      release();
      await commit.drain();
      // The batch already sent commits as one; the queued item is withdrawn.
      expect(written).toEqual([[1]]);
    });

    it('does not write again a batch whose submitters have deadlines', async () => {
      let attempts = 0;
      const commit = new GroupCommit<number, string>({
        maxBatch: 10,
        flushMs: 0,
        maxConcurrent: 1,
        deadlineMs: 1000,
        retryDelaysMs: [1],
        write: () => {
          attempts += 1;
          return Promise.reject(unavailable());
        },
      });
      await expect(commit.submit(1)).rejects.toBeInstanceOf(DatabaseUnavailableError);
      expect(attempts).toBe(1);
    });
  });
});
