import { spentOnDay } from './campaign-eligibility';
import type { Campaign } from '@/campaigns/entities/campaign.entity';

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
