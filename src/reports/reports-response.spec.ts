import { acceptsCsv } from '@/reports/reports-response';

describe('acceptsCsv', () => {
  it.each([
    ['text/csv', true],
    ['text/csv; charset=utf-8', true],
    ['Text/CSV', true],
    ['text/csv, application/json;q=0.5', true],
    ['application/json, text/csv;q=0.5', false],
    ['application/json, text/csv', false],
    ['text/csv;q=0', false],
    ['*/*', false],
    ['text/html,application/xhtml+xml,*/*;q=0.8', false],
    ['', false],
    [undefined, false],
  ])('%s → %s', (accept, expected) => {
    expect(acceptsCsv(accept)).toBe(expected);
  });
});
