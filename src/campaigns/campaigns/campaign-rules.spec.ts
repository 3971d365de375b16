import { ProblemException } from '@/common/problem';
import { assertChangeable, campaignRuleErrors } from './campaign-rules';

const rules = (overrides: Partial<Parameters<typeof campaignRuleErrors>[0]> = {}) =>
  campaignRuleErrors({
    bidMicros: 500_000,
    budgetTotalMicros: null,
    budgetDailyMicros: null,
    startsAt: null,
    endsAt: null,
    keywords: ['learn spanish'],
    keywordTranslations: {},
    ...overrides,
  });

describe('campaignRuleErrors', () => {
  it('accepts budgets of at least the bid and a start before the end', () => {
    expect(
      rules({
        budgetTotalMicros: 500_000,
        budgetDailyMicros: 500_001,
        startsAt: new Date('2030-01-01T00:00:00Z'),
        endsAt: new Date('2030-01-01T00:00:00.001Z'),
      }),
    ).toEqual([]);
  });

  it('names each budget that could not pay for one click', () => {
    expect(rules({ budgetTotalMicros: 499_999, budgetDailyMicros: 1 })).toEqual([
      { field: 'budget_total', message: 'budget_total must be at least bid_per_click' },
      { field: 'budget_daily', message: 'budget_daily must be at least bid_per_click' },
    ]);
  });

  it('refuses an end that is not after the start', () => {
    const at = new Date('2030-01-01T00:00:00Z');
    expect(rules({ startsAt: at, endsAt: at })).toEqual([
      { field: 'ends_at', message: 'ends_at must be later than starts_at' },
    ]);
  });

  it('accepts translations of the keywords, and names each key that is not one', () => {
    const keywordTranslations = { 'learn spanish': ['aprender español'] };
    expect(rules({ keywordTranslations })).toEqual([]);
    expect(
      rules({ keywordTranslations: { ...keywordTranslations, 'learn french': [], 'x"y': [] } }),
    ).toEqual([
      {
        field: 'keyword_translations',
        message:
          'keyword_translations has the key "learn french", which is not a keyword of the campaign',
      },
      {
        field: 'keyword_translations',
        message: 'keyword_translations has the key "x\\"y", which is not a keyword of the campaign',
      },
    ]);
  });
});

describe('assertChangeable', () => {
  it.each(['active', 'paused'] as const)('lets a %s campaign change', (status) => {
    expect(() => assertChangeable({ id: 'c', status })).not.toThrow();
  });

  it('answers 409 campaign_archived for an archived campaign', () => {
    const attempt = () => assertChangeable({ id: 'c', status: 'archived' });
    expect(attempt).toThrow(ProblemException);
    try {
      attempt();
    } catch (error) {
      expect((error as ProblemException).getStatus()).toBe(409);
      expect((error as ProblemException).code).toBe('campaign_archived');
    }
  });
});
