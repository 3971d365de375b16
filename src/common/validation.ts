import {
  type ArgumentMetadata,
  ValidationError,
  ValidationPipe,
  type ValidationPipeOptions,
} from '@nestjs/common';
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
 * A body class's compiled check: the body as the validation pipe would make it (an instance
 * of the class, unknown fields dropped) when it certainly passes every rule, else null. It
 * may say null for a body the rules accept (the pipe then decides); it must never accept one
 * they reject. A null costs nothing but the check: errors always come from class-validator.
 */
export type CompiledCheck<T> = (body: unknown) => T | null;

/**
 * A body class with its compiled check, for `createValidationPipe`. Why not one for every
 * body: the few microseconds matter only on fetch-ads, where class-transformer and
 * class-validator took ~9% of the service's CPU per ad; a compiled check repeats the DTO's
 * rules by hand and needs its equivalence test (see fetch-ads-request.check.spec.ts).
 */
export interface CompiledBodyCheck<T> {
  type: abstract new (...args: never[]) => T;
  check: CompiledCheck<T>;
}

/** Pairs a body class with its check (typed together, so the check makes that class). */
export const compiledBodyCheck = <T>(
  type: CompiledBodyCheck<T>['type'],
  check: CompiledCheck<T>,
): CompiledBodyCheck<T> => ({ type, check });

/** ValidationPipe, with a body's compiled check (if its class has one) tried first. */
class CompiledFirstValidationPipe extends ValidationPipe {
  private readonly checks: ReadonlyMap<unknown, CompiledCheck<unknown>>;

  constructor(options: ValidationPipeOptions, checks: readonly CompiledBodyCheck<unknown>[]) {
    super(options);
    this.checks = new Map(checks.map(({ type, check }) => [type, check]));
  }

  override transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const check = metadata.type === 'body' ? this.checks.get(metadata.metatype) : undefined;
    const accepted = check?.(value);
    if (accepted) return Promise.resolve(accepted);
    return super.transform(value, metadata) as Promise<unknown>;
  }
}

/**
 * The global pipe: unknown fields are dropped, bad ones answer 400 `validation_failed`. Every
 * rule of a field runs (no `stopAtFirstError`, whose answer would depend on the order the
 * decorators are written in); the answer names one message per field, chosen by `flatten`.
 * `compiledChecks` let the bodies they accept skip the rules; without any: the rules alone
 * (what a compiled check is tested against).
 */
export function createValidationPipe(
  compiledChecks: readonly CompiledBodyCheck<unknown>[] = [],
): ValidationPipe {
  const options: ValidationPipeOptions = {
    whitelist: true,
    transform: true,
    forbidUnknownValues: true,
    exceptionFactory: (errors) => ProblemException.validation(flatten(errors)),
  };
  return compiledChecks.length === 0
    ? new ValidationPipe(options)
    : new CompiledFirstValidationPipe(options, compiledChecks);
}
