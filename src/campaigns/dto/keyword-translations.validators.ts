import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { maxLength, ValidateBy, type ValidationArguments } from 'class-validator';
import { normaliseKeyword } from '@/common/keywords';
import {
  type KeywordTranslations,
  MAX_TRANSLATIONS_BYTES,
  MAX_TRANSLATIONS_PER_CAMPAIGN,
  MAX_TRANSLATIONS_PER_KEYWORD,
  quotedKey,
} from '@/campaigns/campaigns/keyword-translations';

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  Object.getPrototypeOf(value) === Object.prototype;

const isListOfText = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');

/**
 * Keys and phrases as the matcher reads them: keys that normalise alike are one key, each
 * phrase once, and a phrase equal to its own keyword is dropped (it adds nothing). Empty
 * phrases stay, for the validator to refuse. A value of the wrong shape is left as sent,
 * for the validator to name.
 */
export function normaliseTranslations(value: unknown): unknown {
  if (!isPlainObject(value) || !Object.values(value).every(isListOfText)) return value;
  const phrasesOf = new Map<string, Set<string>>();
  for (const [rawKey, rawPhrases] of Object.entries(value as Record<string, string[]>)) {
    const key = normaliseKeyword(rawKey);
    const phrases = phrasesOf.get(key) ?? new Set<string>();
    for (const phrase of rawPhrases.map(normaliseKeyword)) {
      if (phrase !== key) phrases.add(phrase);
    }
    phrasesOf.set(key, phrases);
  }
  // fromEntries defines own properties, so a key normalised to "__proto__" stays a plain key.
  return Object.fromEntries([...phrasesOf].map(([key, phrases]) => [key, [...phrases]]));
}

/**
 * What is wrong with a (normalised) translations value, as the end of a message after the
 * field's name, or null. The first broken rule only, in the order listed, as the global
 * pipe reports every other field. Whether the keys are keywords of the campaign is checked
 * with the campaign (campaign-rules.ts): a PATCH may send translations without keywords.
 */
export function translationsProblem(value: unknown, maxPhraseLength: number): string | null {
  if (!isPlainObject(value)) {
    return 'must be an object whose keys are keywords of the campaign and whose values are lists of phrases';
  }
  for (const [key, phrases] of Object.entries(value)) {
    if (!isListOfText(phrases)) {
      return `must map each keyword to a list of phrases (strings): ${quotedKey(key)} does not`;
    }
  }
  const translations = value as KeywordTranslations;
  let total = 0;
  for (const [key, phrases] of Object.entries(translations)) {
    if (phrases.includes('')) return `has an empty phrase for ${quotedKey(key)}`;
    // class-validator's own measure, so a phrase may be exactly as long as a keyword.
    if (!phrases.every((phrase) => maxLength(phrase, maxPhraseLength))) {
      return `has a phrase longer than ${maxPhraseLength} characters for ${quotedKey(key)}`;
    }
    if (phrases.length > MAX_TRANSLATIONS_PER_KEYWORD) {
      return `has ${phrases.length} phrases for ${quotedKey(key)}; at most ${MAX_TRANSLATIONS_PER_KEYWORD} per keyword`;
    }
    total += phrases.length;
  }
  if (total > MAX_TRANSLATIONS_PER_CAMPAIGN) {
    return `has ${total} phrases; at most ${MAX_TRANSLATIONS_PER_CAMPAIGN} per campaign`;
  }
  const bytes = Buffer.byteLength(JSON.stringify(translations), 'utf8');
  if (bytes > MAX_TRANSLATIONS_BYTES) {
    return `takes ${bytes} bytes as JSON; at most ${MAX_TRANSLATIONS_BYTES} (shorten the phrases)`;
  }
  return null;
}

/**
 * A campaign's `keyword_translations`: normalised, then held to the rules above, each
 * phrase at most `maxPhraseLength` long (a keyword's limit). Written above the field's
 * `@IsOmittable()`, so an absent value is not checked.
 */
export function IsKeywordTranslations(maxPhraseLength: number): PropertyDecorator {
  return applyDecorators(
    ValidateBy({
      name: 'isKeywordTranslations',
      validator: {
        validate: (value: unknown) => translationsProblem(value, maxPhraseLength) === null,
        defaultMessage: (args?: ValidationArguments) =>
          `$property ${translationsProblem(args?.value, maxPhraseLength) ?? 'is invalid'}`,
      },
    }),
    Transform(({ value }: { value: unknown }) => normaliseTranslations(value)),
  );
}
