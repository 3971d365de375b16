import { ValidationError, ValidationPipe } from '@nestjs/common';
import { FieldError, ProblemException } from './problem';

/**
 * Which broken rule of a field a client hears about: a missing field is missing, a value of
 * the wrong type is the wrong type, and only then the first other rule that failed. Without
 * this, "maxLength" or "matches" would speak for a number or an absent field.
 */
const FIRST_RULES = [
  'isDefined',
  'isString',
  'isInt',
  'isNumber',
  'isBoolean',
  'isArray',
  'isObject',
  'nestedValidation',
];

function rank(constraint: string): number {
  const index = FIRST_RULES.indexOf(constraint);
  return index === -1 ? FIRST_RULES.length : index;
}

/** The one message of a field: its most basic broken rule (the first in run order on a tie). */
function firstMessage(constraints: Record<string, string>): string | undefined {
  const [first] = Object.keys(constraints).sort((a, b) => rank(a) - rank(b));
  return first === undefined ? undefined : constraints[first];
}

function flatten(errors: ValidationError[], parent = ''): FieldError[] {
  return errors.flatMap((error) => {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const message = firstMessage(error.constraints ?? {});
    // A field that is itself wrong (missing, not an array) says so; its items are not read.
    if (message !== undefined) return [{ field, message }];
    return flatten(error.children ?? [], field);
  });
}

/**
 * The global pipe: unknown fields are dropped, bad ones answer 400 `validation_failed`. Every
 * rule of a field runs (no `stopAtFirstError`, whose answer would depend on the order the
 * decorators are written in); the answer names one message per field, chosen by `flatten`.
 */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    transform: true,
    forbidUnknownValues: true,
    exceptionFactory: (errors) => ProblemException.validation(flatten(errors)),
  });
}
