import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import {
  IsDefined,
  IsNumber,
  IsString,
  IsUrl,
  MaxLength,
  MinLength,
  Max,
  Min,
  ValidateBy,
  ValidateIf,
} from 'class-validator';
import { getAlpha2Codes } from 'i18n-iso-countries';
import { hasAtMostSixDecimals } from './money';

/**
 * Composite validation decorators, so that each rule of the API is spelled once
 * (docs/style.md §4). Every one lists its checks in the order they run: with the global pipe's
 * `stopAtFirstError`, a client hears about the first broken rule of a field only.
 */

/**
 * The field must be sent (`null` counts as missing). Written last in a stack, so that it runs
 * first and a missing field is reported as missing rather than as the wrong type.
 */
export function IsRequired(): PropertyDecorator {
  return IsDefined({ message: '$property is required' });
}

const trim = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' ? value.trim() : value;

/** A string of `min`–`max` characters after trimming (so "   " is not a name). */
export function IsText(options: { min?: number; max: number }): PropertyDecorator {
  return applyDecorators(
    Transform(trim),
    IsString(),
    MinLength(options.min ?? 0),
    MaxLength(options.max),
  );
}

/** An absolute http(s) URL, without credentials, of at most `maxLength` characters. */
export function IsHttpUrl(maxLength = 2048): PropertyDecorator {
  return applyDecorators(
    Transform(trim),
    IsString(),
    MaxLength(maxLength),
    IsUrl(
      { protocols: ['http', 'https'], require_protocol: true, disallow_auth: true },
      { message: '$property must be an http(s) URL' },
    ),
  );
}

/**
 * For PATCH bodies: the field may be left out, but when sent it must pass its rules, so
 * `null` is refused (unlike `@IsOptional()`, which lets `null` through).
 */
export function IsOmittable(): PropertyDecorator {
  return ValidateIf((_object, value) => value !== undefined);
}

/** A revenue share: a fraction from 0 to 1 with at most six decimals (it is stored in ppm). */
export function IsRevenueShare(): PropertyDecorator {
  return applyDecorators(
    IsNumber({ allowNaN: false, allowInfinity: false }),
    Min(0),
    Max(1),
    ValidateBy({
      name: 'isRevenueShare',
      validator: {
        validate: (value: unknown) => typeof value === 'number' && hasAtMostSixDecimals(value),
        defaultMessage: () => '$property must have at most 6 decimals',
      },
    }),
  );
}

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar day written `YYYY-MM-DD` (2025-02-29 is not one). */
export function isIsoDay(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const match = ISO_DAY.exec(value);
  if (!match) return false;
  const [, year, month, day] = match.map(Number);
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
  );
}

/** A calendar day `YYYY-MM-DD`, as used by reports (UTC days). */
export function IsIsoDay(): PropertyDecorator {
  return ValidateBy({
    name: 'isIsoDay',
    validator: {
      validate: isIsoDay,
      defaultMessage: () => '$property must be a date written YYYY-MM-DD',
    },
  });
}

/** Largest amount the API takes: 10^9 units, where micros still print back exactly. */
export const MAX_MONEY_UNITS = 1_000_000_000;

/**
 * An amount of money as a JSON number in currency units (0.35), with at most six decimals,
 * so that it converts to integer micros without rounding. `positive` refuses zero.
 */
export function IsMoney(options: { positive?: boolean } = {}): PropertyDecorator {
  const lowest = options.positive ? 'greater than 0' : 'at least 0';
  return ValidateBy({
    name: 'isMoney',
    validator: {
      validate: (value: unknown) =>
        typeof value === 'number' &&
        Number.isFinite(value) &&
        (options.positive ? value > 0 : value >= 0) &&
        value <= MAX_MONEY_UNITS &&
        hasAtMostSixDecimals(value),
      defaultMessage: () =>
        `$property must be a number ${lowest} and at most ${MAX_MONEY_UNITS}, with at most 6 decimals`,
    },
  });
}

const ALPHA2_CODES = new Set(Object.keys(getAlpha2Codes()));

/** ISO 3166-1 alpha-2 country codes, upper case (`DE`); with `each` for arrays. */
export function IsCountryCode(options: { each?: boolean } = {}): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isCountryCode',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && ALPHA2_CODES.has(value),
        defaultMessage: () => '$property must hold ISO 3166-1 alpha-2 country codes such as DE',
      },
    },
    { each: options.each },
  );
}

// An explicit offset is required: a time without one would be read in the server's zone.
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;

/** An instant written as an ISO 8601 date-time with a zone (`2026-01-31T00:00:00Z`). */
export function IsInstant(): PropertyDecorator {
  return ValidateBy({
    name: 'isInstant',
    validator: {
      validate: (value: unknown) =>
        typeof value === 'string' && INSTANT.test(value) && !Number.isNaN(Date.parse(value)),
      defaultMessage: () =>
        '$property must be an ISO 8601 date-time with a zone, e.g. 2026-01-31T00:00:00Z',
    },
  });
}
