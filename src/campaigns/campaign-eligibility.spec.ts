import { isServable, spentOnDay } from './campaign-eligibility';
import type { Campaign } from './entities/campaign.entity';

const campaign = (overrides: Partial<Campaign> = {}): Campaign =>
  ({
    id: 'c1',
    status: 'active',
    bidMicros: 1_000_000,
    budgetTotalMicros: null,
    budgetDailyMicros: 2_000_000,
    spentMicros: 2_000_000,
    spentTodayMicros: 2_000_000,
    spentDay: '2031-03-09',
    startsAt: null,
    endsAt: null,
    ...overrides,
  }) as Campaign;

describe('spentOnDay', () => {
  it("counts the spend of the campaign's day only on that UTC day", () => {
    expect(spentOnDay(campaign(), '2031-03-09')).toBe(2_000_000);
    expect(spentOnDay(campaign(), '2031-03-10')).toBe(0);
    expect(spentOnDay(campaign({ spentDay: null, spentTodayMicros: 0 }), '2031-03-09')).toBe(0);
  });
});

describe('isServable around UTC midnight', () => {
  it('stops a campaign whose daily budget is spent until the UTC day ends', () => {
    expect(isServable(campaign(), new Date('2031-03-09T00:00:00.000Z'))).toBe(false);
    expect(isServable(campaign(), new Date('2031-03-09T23:59:59.999Z'))).toBe(false);
  });

  it('serves it again from 00:00:00.000 UTC of the next day, whatever the server time zone', () => {
    expect(isServable(campaign(), new Date('2031-03-10T00:00:00.000Z'))).toBe(true);
    // 01:30 in UTC+02:00 is still 23:30 of the 9th in UTC.
    expect(isServable(campaign(), new Date('2031-03-10T01:30:00+02:00'))).toBe(false);
  });

  it('never resets the total budget', () => {
    const spent = campaign({ budgetTotalMicros: 2_000_000, budgetDailyMicros: null });
    expect(isServable(spent, new Date('2031-03-10T00:00:00.000Z'))).toBe(false);
    expect(isServable(spent, new Date('2032-01-01T00:00:00.000Z'))).toBe(false);
  });

  it('serves only while one more click fits both budgets', () => {
    const at = new Date('2031-03-09T12:00:00Z');
    expect(isServable(campaign({ budgetDailyMicros: 3_000_000 }), at)).toBe(true);
    expect(isServable(campaign({ budgetDailyMicros: 2_999_999 }), at)).toBe(false);
    expect(
      isServable(campaign({ budgetDailyMicros: null, budgetTotalMicros: 2_999_999 }), at),
    ).toBe(false);
  });

  it('serves from starts_at (included) until ends_at (excluded), and only when active', () => {
    const open = campaign({
      budgetDailyMicros: null,
      startsAt: new Date('2031-03-09T10:00:00Z'),
      endsAt: new Date('2031-03-09T11:00:00Z'),
    });
    expect(isServable(open, new Date('2031-03-09T09:59:59.999Z'))).toBe(false);
    expect(isServable(open, new Date('2031-03-09T10:00:00.000Z'))).toBe(true);
    expect(isServable(open, new Date('2031-03-09T11:00:00.000Z'))).toBe(false);
    const now = new Date('2031-03-09T10:30:00Z');
    expect(isServable({ ...open, status: 'paused' }, now)).toBe(false);
    expect(isServable({ ...open, status: 'archived' }, now)).toBe(false);
  });
});
