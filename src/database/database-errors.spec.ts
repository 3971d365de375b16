import { Logger } from '@nestjs/common';
import {
  DatabaseUnavailableError,
  isDatabaseUnavailable,
  waitAtMost,
  withDeadline,
} from './database-errors';

const driverError = (code: string) => Object.assign(new Error(code), { code });

describe('isDatabaseUnavailable', () => {
  it.each(['ECONNREFUSED', 'PROTOCOL_CONNECTION_LOST', 'ETIMEDOUT', 'SQLITE_BUSY'])(
    'holds for %s, also as the driver error TypeORM wraps',
    (code) => {
      expect(isDatabaseUnavailable(driverError(code))).toBe(true);
      expect(isDatabaseUnavailable({ driverError: driverError(code) })).toBe(true);
    },
  );

  it('holds for a deadline that passed and for a closed pool', () => {
    expect(isDatabaseUnavailable(new DatabaseUnavailableError('late'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Pool is closed.'))).toBe(true);
  });

  it('does not hold for a statement the database refused', () => {
    for (const code of ['ER_DUP_ENTRY', 'ER_PARSE_ERROR', 'SQLITE_CONSTRAINT_PRIMARYKEY']) {
      expect(isDatabaseUnavailable(driverError(code))).toBe(false);
    }
    expect(isDatabaseUnavailable(new Error('boom'))).toBe(false);
    expect(isDatabaseUnavailable(null)).toBe(false);
  });
});

describe('withDeadline', () => {
  it('answers with the work when it is in time, else with DatabaseUnavailableError', async () => {
    await expect(withDeadline(Promise.resolve(1), 50, 'read')).resolves.toBe(1);
    const never = new Promise<never>(() => undefined);
    await expect(withDeadline(never, 10, 'read')).rejects.toBeInstanceOf(DatabaseUnavailableError);
  });
});

describe('waitAtMost', () => {
  it('goes on without a late write, and logs it when it finally fails', async () => {
    const errors = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    let fail!: (error: Error) => void;
    const late = new Promise<string>((_, reject) => (fail = reject));
    await expect(waitAtMost(late, 10, 'click')).resolves.toBeUndefined();
    fail(new Error('gave up'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(errors).toHaveBeenCalledWith(expect.stringContaining('click lost: Error: gave up'));
    jest.restoreAllMocks();
  });

  it('passes on a result or an error that comes in time', async () => {
    await expect(waitAtMost(Promise.resolve('ok'), 50, 'click')).resolves.toBe('ok');
    await expect(waitAtMost(Promise.reject(new Error('bad')), 50, 'click')).rejects.toThrow('bad');
  });
});
