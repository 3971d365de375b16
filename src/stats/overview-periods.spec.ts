import { overviewPeriods } from '@/stats/overview-periods';
import { changeOf, rpmOf } from '@/stats/stats-figures';

const at = (iso: string) =>
  Object.fromEntries(overviewPeriods(new Date(iso)).map((p) => [p.period, p]));

describe('overviewPeriods', () => {
  it('gives each day the day before, and this month last month up to the same day', () => {
    expect(at('2031-05-15T12:00:00Z')).toEqual({
      today: {
        period: 'today',
        from: '2031-05-15',
        to: '2031-05-15',
        previous: { from: '2031-05-14', to: '2031-05-14' },
      },
      yesterday: {
        period: 'yesterday',
        from: '2031-05-14',
        to: '2031-05-14',
        previous: { from: '2031-05-13', to: '2031-05-13' },
      },
      this_month: {
        period: 'this_month',
        from: '2031-05-01',
        to: '2031-05-15',
        previous: { from: '2031-04-01', to: '2031-04-15' },
      },
      last_month: {
        period: 'last_month',
        from: '2031-04-01',
        to: '2031-04-30',
        previous: { from: '2031-03-01', to: '2031-03-31' },
      },
    });
  });

  it('ends the month before at its last day when it is shorter', () => {
    expect(at('2032-03-31T23:59:59Z').this_month.previous).toEqual({
      from: '2032-02-01',
      to: '2032-02-29',
    });
  });

  it('crosses years and month starts', () => {
    const january = at('2031-01-01T00:00:00Z');
    expect(january.yesterday).toMatchObject({ from: '2030-12-31', to: '2030-12-31' });
    expect(january.last_month).toMatchObject({
      from: '2030-12-01',
      to: '2030-12-31',
      previous: { from: '2030-11-01', to: '2030-11-30' },
    });
    expect(january.this_month.previous).toEqual({ from: '2030-12-01', to: '2030-12-01' });
  });
});

describe('rpmOf and changeOf', () => {
  it('answers earnings per 1,000 impressions to the micro, 0 without impressions', () => {
    expect(rpmOf({ impressions: 3, earningsMicros: 140_000 })).toBe(46.666667);
    expect(rpmOf({ impressions: 0, earningsMicros: 140_000 })).toBe(0);
  });

  it('answers the change as a fraction, null when there was nothing before', () => {
    expect(changeOf(350_000, 500_000)).toBe(-0.3);
    expect(changeOf(5, 0)).toBeNull();
  });
});
