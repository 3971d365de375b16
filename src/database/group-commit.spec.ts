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
    expect(commit.stats).toEqual({ batches: 1, items: 5 });
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
});
