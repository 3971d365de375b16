import { applyDecorators } from '@nestjs/common';
import { ValidateBy, type ValidationArguments } from 'class-validator';
import {
  findDisclosureImitation,
  findHiddenCharacter,
  findInstruction,
  findMarkup,
} from '@/campaigns/campaigns/ad-copy-rules';

/**
 * One rule of ad copy as a class-validator constraint: `find` returns what breaks the rule
 * (quoted in the message, so the operator sees what to change) or `null`. Non-strings
 * pass: `@IsText()` below this decorator has refused them already.
 */
function AdCopyRule(
  name: string,
  find: (text: string) => string | null,
  message: (found: string) => string,
): PropertyDecorator {
  return ValidateBy({
    name,
    validator: {
      validate: (value: unknown) => typeof value !== 'string' || find(value) === null,
      defaultMessage: (args?: ValidationArguments) =>
        `$property ${message(typeof args?.value === 'string' ? (find(args.value) ?? '') : '')}`,
    },
  });
}

/** No zero-width, bidirectional control or other invisible character. */
export function HasNoHiddenCharacters(): PropertyDecorator {
  return AdCopyRule(
    'hasNoHiddenCharacters',
    findHiddenCharacter,
    (found) => `must not contain invisible or direction-changing characters (found ${found})`,
  );
}

/** No HTML tag and no Markdown link, image or autolink. */
export function HasNoMarkup(): PropertyDecorator {
  return AdCopyRule(
    'hasNoMarkup',
    findMarkup,
    (found) => `must be plain text: no HTML or Markdown links and images (found ${found})`,
  );
}

/** Neither a disclosure label of any language nor a denial that this is an ad. */
export function HasNoDisclosureImitation(): PropertyDecorator {
  return AdCopyRule(
    'hasNoDisclosureImitation',
    findDisclosureImitation,
    (found) =>
      `must not imitate or contradict the disclosure label added to every ad (found "${found}")`,
  );
}

/** No phrase that addresses the AI assistant instead of the reader. */
export function HasNoInstructions(): PropertyDecorator {
  return AdCopyRule(
    'hasNoInstructions',
    findInstruction,
    (found) => `must not contain instructions aimed at the AI assistant (found "${found}")`,
  );
}

/**
 * Text that goes into an ad inside an AI reply: plain, visible, addressed to the reader and
 * leaving the disclosure to Adline (the rules and why: ../ad-copy-rules.ts). Written above
 * `@IsText()`, so it runs after the type and length checks. The checks run in the order
 * listed: hidden characters first, since they can hide the other three.
 */
export function IsAdCopy(): PropertyDecorator {
  return applyDecorators(
    HasNoHiddenCharacters(),
    HasNoMarkup(),
    HasNoDisclosureImitation(),
    HasNoInstructions(),
  );
}
