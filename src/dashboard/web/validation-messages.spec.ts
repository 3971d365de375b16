/// <reference types="jest" />
import { presetOf, presetRange } from './dates';
import { formatChange } from './format';
import {
  checkEmail,
  checkNewPassword,
  checkRequired,
  plainFieldMessage,
} from './validation-messages';

describe('field messages in plain words', () => {
  it.each([
    ['name', 'name must be longer than or equal to 1 characters', 'Enter a name.'],
    ['name', 'name should not be empty', 'Enter a name.'],
    ['email', 'email must be an email', 'Enter an email address like name@example.com.'],
    ['link', 'link must be an http(s) URL', 'Enter a web address that starts with https://.'],
    [
      'description',
      'description must be shorter than or equal to 1000 characters',
      'The description must be at most 1000 characters; shorten it.',
    ],
    [
      'password',
      'password must be at least 10 characters',
      'The password must be at least 10 characters long.',
    ],
    [
      'new_password',
      'new_password is one of the most common passwords; choose another',
      'This password is one of the most commonly used ones; choose another.',
    ],
    ['current_password', 'current_password is required', 'Enter your current password.'],
    [
      'to',
      'The last day must not be before the first.',
      'The last day must not be before the first.',
    ],
    ['max_ads', 'max_ads must not be less than 1', 'The max ads must be at least 1.'],
    ['link_url', 'link_url must be lower case', 'The link url must be lower case.'],
  ])('%s: "%s" reads "%s"', (field, message, plain) => {
    expect(plainFieldMessage(field, message)).toBe(plain);
  });

  it('catches empty fields, odd email addresses and short passwords before a request', () => {
    expect(checkRequired('name', '  ')).toBe('Enter a name.');
    expect(checkRequired('name', 'Barista')).toBeNull();
    expect(checkEmail('')).toBe('Enter your email address.');
    expect(checkEmail('barista')).toBe('Enter an email address like name@example.com.');
    expect(checkEmail('barista@example.test')).toBeNull();
    expect(checkNewPassword('new_password', 'short')).toBe(
      'The new password must be at least 10 characters long.',
    );
    expect(checkNewPassword('new_password', 'a long enough password')).toBeNull();
  });
});

describe('the statistics quick ranges', () => {
  const now = new Date('2026-03-15T10:00:00Z');

  it('are UTC days: today, yesterday, last 7 days, this month and last month', () => {
    expect(presetRange('today', now)).toEqual({ from: '2026-03-15', to: '2026-03-15' });
    expect(presetRange('yesterday', now)).toEqual({ from: '2026-03-14', to: '2026-03-14' });
    expect(presetRange('last_7_days', now)).toEqual({ from: '2026-03-09', to: '2026-03-15' });
    expect(presetRange('this_month', now)).toEqual({ from: '2026-03-01', to: '2026-03-15' });
    expect(presetRange('last_month', now)).toEqual({ from: '2026-02-01', to: '2026-02-28' });
    expect(presetRange('last_month', new Date('2026-01-02T00:00:00Z'))).toEqual({
      from: '2025-12-01',
      to: '2025-12-31',
    });
  });

  it('recognise a range as a preset, or as custom', () => {
    expect(presetOf({ from: '2026-03-01', to: '2026-03-15' }, now)).toBe('this_month');
    expect(presetOf({ from: '2026-03-02', to: '2026-03-15' }, now)).toBeNull();
  });
});

describe('an earnings change', () => {
  it('reads +x% or −x%, and nothing to compare with when the period before earned nothing', () => {
    expect(formatChange(0.25, 'en-US')).toBe('+25%');
    expect(formatChange(-0.125, 'en-US')).toBe('−12.5%');
    expect(formatChange(0, 'en-US')).toBe('±0%');
    expect(formatChange(null, 'en-US')).toBe('—');
  });
});
