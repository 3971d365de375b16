import { type BudgetState, canPay, charge } from './campaign-budget';

const fresh = (overrides: Partial<BudgetState> = {}): BudgetState => ({
  totalMicros: null,
  dailyMicros: null,
  spentMicros: 0,
  spentTodayMicros: 0,
  spentDay: null,
  ...overrides,
});

describe('campaign budgets', () => {
  it('charges until the total budget, never past it', () => {
    let state: BudgetState = fresh({ totalMicros: 1_000_000 });
    const results: boolean[] = [];
    for (let i = 0; i < 4; i++) {
      const next = charge(state, 300_000, '2031-03-09');
      results.push(next !== null);
      if (next) state = next;
    }
    expect(results).toEqual([true, true, true, false]);
    expect(state).toMatchObject({ spentMicros: 900_000, spentTodayMicros: 900_000 });
    expect(canPay(state, 100_000, '2031-03-09')).toBe(true);
    expect(canPay(state, 100_001, '2031-03-09')).toBe(false);
  });

  it('counts the daily budget per UTC day and starts again on a new day', () => {
    const spent = fresh({
      dailyMicros: 2_000_000,
      spentMicros: 5_000_000,
      spentTodayMicros: 2_000_000,
      spentDay: '2031-03-09',
    });
    expect(charge(spent, 1, '2031-03-09')).toBeNull();
    expect(charge(spent, 2_000_000, '2031-03-10')).toEqual({
      ...spent,
      spentMicros: 7_000_000,
      spentTodayMicros: 2_000_000,
      spentDay: '2031-03-10',
    });
  });

  describe('around UTC midnight, with batches committing in either order', () => {
    const daily = fresh({ dailyMicros: 3_000_000 });
    const charged = (state: BudgetState, ...clicks: [number, string][]) =>
      clicks.reduce<BudgetState | null>((s, [bid, day]) => s && charge(s, bid, day), state);

    it('starts the new day from zero when the earlier day is charged first', () => {
      const state = charged(daily, [2_000_000, '2031-03-09'], [3_000_000, '2031-03-10']);
      expect(state).toMatchObject({
        spentMicros: 5_000_000,
        spentTodayMicros: 3_000_000,
        spentDay: '2031-03-10',
      });
    });

    it('counts a late click of the earlier day against the later day, never rewinding it', () => {
      const afterMidnight = charged(daily, [2_000_000, '2031-03-10'])!;
      const late = charge(afterMidnight, 1_000_000, '2031-03-09');
      expect(late).toEqual({
        ...afterMidnight,
        spentMicros: 3_000_000,
        spentTodayMicros: 3_000_000,
        spentDay: '2031-03-10',
      });
      // The later day's cap is reached: a rewound state would have allowed 3 more.
      expect(charge(late!, 1, '2031-03-10')).toBeNull();
      expect(charge(afterMidnight, 1_000_001, '2031-03-09')).toBeNull();
    });
  });

  it('refuses a charge that fits one budget but not the other', () => {
    const state = fresh({ totalMicros: 10_000_000, dailyMicros: 1_000_000 });
    expect(charge(state, 1_500_000, '2031-03-09')).toBeNull();
    expect(charge(fresh({ totalMicros: 1_000_000 }), 1_500_000, '2031-03-09')).toBeNull();
    expect(charge(fresh(), 1_500_000, '2031-03-09')?.spentMicros).toBe(1_500_000);
  });
});
