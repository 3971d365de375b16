import { daysInRange, MAX_STATS_DAYS, statsRangeErrors } from '@/reports/stats-range';

describe('statsRangeErrors', () => {
  it('accepts a single day', () => {
    expect(statsRangeErrors('2026-03-01', '2026-03-01')).toEqual([]);
  });

  it('accepts a whole leap year, 366 days with both ends counted', () => {
    expect(daysInRange('2024-01-01', '2024-12-31')).toBe(366);
    expect(statsRangeErrors('2024-01-01', '2024-12-31')).toEqual([]);
  });

  it('refuses one day more than 366', () => {
    expect(daysInRange('2025-01-01', '2026-01-02')).toBe(367);
    expect(statsRangeErrors('2025-01-01', '2026-01-02')).toEqual([
      { field: 'to', message: `the range may span at most ${MAX_STATS_DAYS} days` },
    ]);
  });

  it('refuses a range that ends before it starts', () => {
    expect(statsRangeErrors('2026-03-02', '2026-03-01')).toEqual([
      { field: 'to', message: 'to must not be before from' },
    ]);
  });

  it('counts days across a change to summer time as whole days (UTC)', () => {
    expect(daysInRange('2026-03-28', '2026-03-30')).toBe(3);
  });
});
