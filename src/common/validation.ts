import { type ArgumentMetadata, ValidationError, ValidationPipe } from '@nestjs/common';
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

const compiledChecks = new Map<unknown, CompiledCheck<unknown>>();

/**
 * Registers `check` for bodies of `type` on the hot path. Why not for every body: the few
 * microseconds matter only on fetch-ads, where class-transformer and class-validator took
 * ~8% of the service's CPU per ad; a compiled check repeats the DTO's rules by hand and needs
 * its equivalence test (see fetch-ads-request.check.spec.ts).
 */
export function registerCompiledCheck<T>(
  type: abstract new (...args: never[]) => T,
  check: CompiledCheck<T>,
): void {
  compiledChecks.set(type, check);
}

/** ValidationPipe, with a body's compiled check (if its class has one) tried first. */
class CompiledFirstValidationPipe extends ValidationPipe {
  override transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const check = metadata.type === 'body' ? compiledChecks.get(metadata.metatype) : undefined;
    const accepted = check?.(value);
    if (accepted) return Promise.resolve(accepted);
    return super.transform(value, metadata) as Promise<unknown>;
  }
}

/**
 * The global pipe: unknown fields are dropped, bad ones answer 400 `validation_failed`. Every
 * rule of a field runs (no `stopAtFirstError`, whose answer would depend on the order the
 * decorators are written in); the answer names one message per field, chosen by `flatten`.
 * Without compiled checks: the rules alone (what a compiled check is tested against).
 */
export function createValidationPipe(options: { compiledChecks?: boolean } = {}): ValidationPipe {
  const Pipe = options.compiledChecks === false ? ValidationPipe : CompiledFirstValidationPipe;
  return new Pipe({
    whitelist: true,
    transform: true,
    forbidUnknownValues: true,
    exceptionFactory: (errors) => ProblemException.validation(flatten(errors)),
  });
}
