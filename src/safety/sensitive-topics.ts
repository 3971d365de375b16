/**
 * The topics next to which no ad is shown (an ad inside an AI reply borrows the assistant's
 * credibility), and the shape of their word lists.
 */
export const SENSITIVE_TOPICS = [
  'self_harm',
  'medical_emergency',
  'mental_health_crisis',
  'abuse_violence',
  'sexual_content',
  'minors',
  'tragedy_disaster',
  'elections_politics',
] as const;

export type SensitiveTopic = (typeof SENSITIVE_TOPICS)[number];

/**
 * One language's entries per topic. An entry is a word or a phrase, written as a person
 * would type it: it is folded like the text it is matched against (accents, case, `-` and
 * `'` do not matter), and a phrase matches only as the same words in a row.
 */
export type TopicList = Readonly<Record<SensitiveTopic, readonly string[]>>;
