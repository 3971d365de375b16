import { FILL_OUTCOMES, FillTally, NO_FILL_REASONS } from '@/earnings/fill-outcomes';

describe('FillTally', () => {
  it('counts each (day, model, outcome) in one entry and hands them over in key order', () => {
    const tally = new FillTally();
    tally.add('2026-03-02', 'p1', 'm1', 'filled');
    tally.add('2026-03-01', 'p1', 'm2', 'no_match');
    tally.add('2026-03-02', 'p1', 'm1', 'filled');
    tally.add('2026-03-01', 'p1', 'm1', 'sensitive_topic');
    expect(tally.take()).toEqual([
      { day: '2026-03-01', publisherId: 'p1', modelId: 'm1', outcome: 'sensitive_topic', count: 1 },
      { day: '2026-03-01', publisherId: 'p1', modelId: 'm2', outcome: 'no_match', count: 1 },
      { day: '2026-03-02', publisherId: 'p1', modelId: 'm1', outcome: 'filled', count: 2 },
    ]);
  });

  it('starts again at zero after a take', () => {
    const tally = new FillTally();
    tally.add('2026-03-01', 'p1', 'm1', 'filled');
    tally.take();
    expect(tally.empty).toBe(true);
    expect(tally.take()).toEqual([]);
  });

  it('adds restored counts to those that arrived meanwhile, so a failed write loses nothing', () => {
    const tally = new FillTally();
    tally.add('2026-03-01', 'p1', 'm1', 'filled', 3);
    const taken = tally.take();
    tally.add('2026-03-01', 'p1', 'm1', 'filled');
    tally.restore(taken);
    expect(tally.take()).toEqual([
      { day: '2026-03-01', publisherId: 'p1', modelId: 'm1', outcome: 'filled', count: 4 },
    ]);
  });
});

describe('the outcomes', () => {
  it('are `filled` and every no-fill reason of the stats', () => {
    expect(NO_FILL_REASONS).toEqual([
      'no_match',
      'no_targeted_match',
      'sensitive_topic',
      'frequency_cap',
      'relevance_floor',
      'blocked',
      'test',
    ]);
    expect(FILL_OUTCOMES).toEqual(['filled', ...NO_FILL_REASONS]);
  });
});
