/**
 * The label that marks every ad as paid for: the `disclosure` field of a fetch-ads answer
 * and the last line of its `campaign_markdown`, in the reader's language. The words are the
 * ones readers already know from the press and the large platforms ("Anzeige" is the
 * German press codes' word for a paid placement).
 *
 * They live in campaigns, beside the rules for campaign text, because those rules refuse
 * text that imitates any of them; ads, which render them, may import campaigns but not the
 * other way round (docs/architecture.md). English comes first: it is the default.
 */
export const DISCLOSURE_LABELS = {
  en: 'Sponsored',
  de: 'Anzeige',
  fr: 'Publicité',
  es: 'Patrocinado',
  it: 'Sponsorizzato',
  nl: 'Gesponsord',
  pt: 'Patrocinado',
} as const;

export type DisclosureLocale = keyof typeof DISCLOSURE_LABELS;

/** Used when neither the request's `locale` nor its `Accept-Language` names a language above. */
export const DEFAULT_DISCLOSURE_LOCALE: DisclosureLocale = 'en';
