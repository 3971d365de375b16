/// <reference types="jest" />
import type { StatsRow } from './api';
import { eachDay, lastDays } from './dates';
import { perDay, perModel, reasonsWithCounts, rpmOf, unbilledPerDayAndModel } from './stats-data';

const row = (
  date: string,
  modelId: string,
  impressions: number,
  clicks: number,
  earnings: number,
): StatsRow => ({
  date,
  model_id: modelId,
  impressions,
  clicks,
  ctr: impressions > 0 ? clicks / impressions : 0,
  earnings,
  test_impressions: 0,
  test_clicks: 0,
  requests: 0,
  fills: 0,
  fill_rate: null,
  no_fills: {},
});

describe('the default range', () => {
  it('is the last 30 UTC days, today included', () => {
    expect(lastDays(30, new Date('2026-03-01T23:30:00Z'))).toEqual({
      from: '2026-01-31',
      to: '2026-03-01',
    });
  });

  it('lists every day across a month end, and none for a reversed range', () => {
    expect(eachDay('2026-02-27', '2026-03-02')).toEqual([
      '2026-02-27',
      '2026-02-28',
      '2026-03-01',
      '2026-03-02',
    ]);
    expect(eachDay('2026-03-02', '2026-03-01')).toEqual([]);
  });
});

describe('figures per day', () => {
  it('fills the quiet days the API leaves out with zeros and sums the models of a day', () => {
    const days = perDay(
      [row('2026-03-02', 'a', 10, 1, 0.28), row('2026-03-02', 'b', 30, 1, 0.07)],
      '2026-03-01',
      '2026-03-03',
    );
    expect(days).toEqual([
      { date: '2026-03-01', impressions: 0, clicks: 0, ctr: 0, earnings: 0 },
      { date: '2026-03-02', impressions: 40, clicks: 2, ctr: 0.05, earnings: 0.35 },
      { date: '2026-03-03', impressions: 0, clicks: 0, ctr: 0, earnings: 0 },
    ]);
  });
});

describe('figures per model', () => {
  it('lists every model, quiet ones with zeros, and sums money without drift', () => {
    const rows = [
      row('2026-03-01', 'a', 5, 1, 0.1),
      row('2026-03-02', 'a', 5, 1, 0.2),
      row('2026-03-02', 'gone', 2, 0, 0),
    ];
    const models = perModel(rows, [
      { id: 'a', name: 'Chat' },
      { id: 'b', name: 'Voice' },
    ]);
    expect(models).toEqual([
      { modelId: 'a', name: 'Chat', impressions: 10, clicks: 2, ctr: 0.2, earnings: 0.3 },
      { modelId: 'b', name: 'Voice', impressions: 0, clicks: 0, ctr: 0, earnings: 0 },
      { modelId: 'gone', name: 'Model gone', impressions: 2, clicks: 0, ctr: 0, earnings: 0 },
    ]);
  });
});

describe('unbilled clicks', () => {
  it('are counted per day and model, a column per reason, newest day first', () => {
    expect(
      unbilledPerDayAndModel([
        { date: '2026-03-01', model_id: 'a', reason: 'bot', clicks: 2 },
        { date: '2026-03-02', model_id: 'a', reason: 'bot', clicks: 1 },
        { date: '2026-03-01', model_id: 'a', reason: 'duplicate', clicks: 3 },
      ]),
    ).toEqual([
      { date: '2026-03-02', modelId: 'a', byReason: { bot: 1 }, total: 1 },
      { date: '2026-03-01', modelId: 'a', byReason: { bot: 2, duplicate: 3 }, total: 5 },
    ]);
  });

  it('list every reason, those that happened first', () => {
    const reasons = [{ reason: 'bot' }, { reason: 'prefetch' }, { reason: 'duplicate' }];
    expect(
      reasonsWithCounts(reasons, [{ reason: 'duplicate', clicks: 4 }]).map((r) => [
        r.reason,
        r.clicks,
      ]),
    ).toEqual([
      ['duplicate', 4],
      ['bot', 0],
      ['prefetch', 0],
    ]);
  });

  it('RPM is earnings per 1,000 impressions', () => {
    expect(rpmOf({ impressions: 2000, earnings: 0.63 })).toBe(0.315);
    expect(rpmOf({ impressions: 0, earnings: 0 })).toBe(0);
  });
});
