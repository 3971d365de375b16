/**
 * Field messages in plain words. The API's validation answers name the property the way
 * class-validator words it ("name must be longer than or equal to 1 characters"); a person
 * filling in a form reads "Enter a name". The client-side checks use the same words.
 */

interface FieldWords {
  /** How a sentence starts about the field: "The name". */
  label: string;
  /** What to enter: "a name". */
  noun: string;
}

const FIELDS: Record<string, FieldWords> = {
  name: { label: 'The name', noun: 'a name' },
  email: { label: 'The email address', noun: 'your email address' },
  password: { label: 'The password', noun: 'a password' },
  current_password: { label: 'The current password', noun: 'your current password' },
  new_password: { label: 'The new password', noun: 'a new password' },
  description: { label: 'The description', noun: 'a description' },
  link: { label: 'The link', noun: 'a link' },
  label: { label: 'The label', noun: 'a label' },
  from: { label: 'The first day', noun: 'the first day of the range' },
  to: { label: 'The last day', noun: 'the last day of the range' },
  token: { label: 'The link', noun: 'the link from the mail' },
  blocked_keywords: { label: 'Each blocked keyword', noun: 'a keyword' },
  relevance_floor: { label: 'The relevance floor', noun: 'a relevance floor' },
};

const wordsOf = (field: string): FieldWords => {
  const known = FIELDS[field] ?? FIELDS[field.split('.').at(-1) ?? ''];
  if (known) return known;
  const spoken = field.replace(/[._]/g, ' ').trim();
  return { label: `The ${spoken}`, noun: `the ${spoken}` };
};

const sentence = (text: string): string => {
  const trimmed = text.trim();
  const upper = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(upper) ? upper : `${upper}.`;
};

/** "Enter a name." and the like: for an empty required field. */
export const enterMessage = (field: string): string => `Enter ${wordsOf(field).noun}.`;

const RULES: { pattern: RegExp; say: (w: FieldWords, n: string) => string }[] = [
  {
    pattern: /(?:should not be empty|is required|must be a string|must not be empty)$/,
    say: (w) => `Enter ${w.noun}`,
  },
  {
    pattern: /must be longer than or equal to (\d+) characters?$/,
    say: (w, n) => (n === '1' ? `Enter ${w.noun}` : `${w.label} must be at least ${n} characters`),
  },
  {
    pattern: /must be shorter than or equal to (\d+) characters?$/,
    say: (w, n) => `${w.label} must be at most ${n} characters; shorten it`,
  },
  {
    pattern: /must be at least (\d+) characters$/,
    say: (w, n) => `${w.label} must be at least ${n} characters long`,
  },
  {
    pattern: /must not be one character repeated$/,
    say: (w) => `${w.label} must not be one character repeated`,
  },
  {
    pattern: /is one of the most common passwords/,
    say: () => 'This password is one of the most commonly used ones; choose another',
  },
  {
    pattern: /must be an email$/,
    say: () => 'Enter an email address like name@example.com',
  },
  {
    pattern: /must be (?:an http\(s\) URL|a URL address|an URL address)$/,
    say: () => 'Enter a web address that starts with https://',
  },
  {
    pattern: /must be a valid ISO 8601 date string$|must be a date|YYYY-MM-DD/,
    say: (w) => `Enter ${w.noun} as a date`,
  },
  {
    pattern: /must not be greater than ([\d.]+)$/,
    say: (w, n) => `${w.label} must be at most ${n}`,
  },
  {
    pattern: /must not be less than ([\d.]+)$/,
    say: (w, n) => `${w.label} must be at least ${n}`,
  },
  {
    pattern: /must be one of the following values: (.+)$/,
    say: (w, n) => `${w.label} must be one of ${n}`,
  },
];

/**
 * The API's message for `field` in plain words. Messages the API already words for people
 * ("The last day must not be before the first.") keep their words.
 */
export function plainFieldMessage(field: string, message: string): string {
  const words = wordsOf(field);
  for (const rule of RULES) {
    const match = rule.pattern.exec(message);
    if (match) return sentence(rule.say(words, match[1] ?? ''));
  }
  // "link_url must …" → "The link url must …"
  const property = field.split('.').at(-1) ?? field;
  if (message.startsWith(`${property} `) || message.startsWith(`${field} `)) {
    const rest = message.slice(message.indexOf(' ') + 1);
    return sentence(`${words.label} ${rest}`);
  }
  return sentence(message);
}

/** Client-side: the obvious mistakes, caught before a request; null when the value is fine. */
export function checkRequired(field: string, value: string): string | null {
  return value.trim() === '' ? enterMessage(field) : null;
}

export function checkEmail(value: string): string | null {
  if (value.trim() === '') return enterMessage('email');
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim())
    ? null
    : 'Enter an email address like name@example.com.';
}

/** The API's own rules decide the rest (common passwords); this catches the short ones. */
export function checkNewPassword(field: string, value: string, minLength = 10): string | null {
  if (value === '') return enterMessage(field);
  return [...value].length < minLength
    ? `${wordsOf(field).label} must be at least ${minLength} characters long.`
    : null;
}
