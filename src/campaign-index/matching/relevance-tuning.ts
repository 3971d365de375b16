/**
 * The numbers of the relevance rules in one place, chosen on the labelled set
 * (test/fixtures/relevance, `npm run relevance`): change one only with that run before and
 * after. Each is explained where it is used; in short:
 */
export const RELEVANCE_TUNING = {
  /** A form word met only by stem counts this share of its weight ("hotel" for "hotels"). */
  stemFactor: 0.9,
  /** Words of one stem match only when their lengths differ by at most this (an inflection, not a derivation). */
  maxInflectionLetters: 2,
  /** A form word met by a sent word that is a part of it ("katzen" in "katzenfutter") counts this share. */
  partFactor: 0.6,
  /** A form word not sent but spelled the same in the conversation counts this share. */
  conversationWordFactor: 0.5,
  /** A keyword met through a translation reaches this share of what its words earn. */
  translationFactor: 0.9,
  /** A form needs this share of its weight met… */
  minFormCoverage: 0.4,
  /** …and form coverage × (`sentSideBase` + (1 − `sentSideBase`) × sent coverage) this much. */
  minSimilarity: 0.5,
  sentSideBase: 0.5,
  /** At most this many keywords met word by word or by translation count for a request. */
  maxWordMatchedKeywords: 4,
  /** A generic word ("online", "software", "cheap") weighs this share of its rarity. */
  genericWeight: 0.5,
  /** Relevance = keyword share × (`sentCoverageBase` + (1 − it) × share of sent keywords explained). */
  sentCoverageBase: 0.7,
  /** Relevance is multiplied by this when the conversation shows no commercial intent. */
  noIntentFactor: 0.7,
  /** Below this relevance no campaign is served, whatever it bids. */
  minRelevance: 0.12,
  /** Relevance is measured against the weight of at most this many of a campaign's heaviest keywords. */
  relevanceKeywords: 3,
};
