import type { KeywordTranslations } from '@/campaigns/campaigns/keyword-translations';

/**
 * How `keyword_translations` is documented, shared by the request DTOs and the campaign
 * answer (its own file, so that the answer does not import the request DTOs).
 */

export const TRANSLATIONS_SCHEMA = {
  type: 'object',
  additionalProperties: { type: 'array', items: { type: 'string' } },
} as const;

export const TRANSLATIONS_EXAMPLE: KeywordTranslations = {
  'hiking boots': ['chaussures de randonnée', 'wanderschuhe', 'botas de montaña'],
};

/** What a translation does, for the field's description in requests and answers. */
export const TRANSLATIONS_EFFECT =
  "A request that meets a translation meets its keyword: it reaches that keyword's weight and adds none of its own, so giving a keyword in several languages neither raises nor dilutes the campaign's relevance.";
