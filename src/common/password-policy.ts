import { dictionary } from '@zxcvbn-ts/language-common';
import { ValidateBy, type ValidationOptions } from 'class-validator';

/** Shorter passwords fall to offline guessing too fast (NIST SP 800-63B asks for at least 8). */
export const PASSWORD_MIN_LENGTH = 10;

/**
 * The ~49,000 most common passwords of zxcvbn-ts's maintained list (from leaked password
 * dumps); a list we keep ourselves would only fall behind. Built on first use, lower-cased,
 * because "Password123" is as guessable as "password123".
 */
let common: Set<string> | null = null;
const commonPasswords = (): Set<string> =>
  (common ??= new Set(dictionary['passwords-common'].map((word) => word.toLowerCase())));

/** Why a password is refused, as the end of "password …", or null when it is acceptable. */
export function passwordWeakness(password: string): string | null {
  if ([...password].length < PASSWORD_MIN_LENGTH) {
    return `must be at least ${PASSWORD_MIN_LENGTH} characters`;
  }
  if (new Set(password).size === 1) return 'must not be one character repeated';
  if (commonPasswords().has(password.toLowerCase())) {
    return 'is one of the most common passwords; choose another';
  }
  return null;
}

/** A new password: long enough, not one repeated character, not a commonly used one. */
export function IsAcceptablePassword(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isAcceptablePassword',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && passwordWeakness(value) === null,
        defaultMessage: (args) =>
          `${args?.property ?? 'password'} ${
            typeof args?.value === 'string'
              ? (passwordWeakness(args.value) ?? 'is not acceptable')
              : 'must be a string'
          }`,
      },
    },
    options,
  );
}
