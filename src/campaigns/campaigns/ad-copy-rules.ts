import { decompose } from '@/common/text-folding';
import { DISCLOSURE_LABELS } from './disclosure-labels';

/**
 * What a campaign's `name` and `text` may not contain. Both end up inside an AI assistant's
 * reply, where a language model may read them and a person trusts them, so they are
 * untrusted input twice: markup could turn into links or HTML, invisible characters could
 * hide or reorder words, an instruction could steer the model, and a fake label could make
 * the ad look like something else. The Markdown escaping of ad-markdown.ts already keeps
 * markup inert; these rules refuse such text when it is saved, so the operator hears why.
 *
 * Each `find…` returns what it found (for the error message) or `null`. Words and phrases
 * are matched whole, without regard to case or accents, after the text is folded by
 * `foldForMatching`. The checks run when a campaign is saved, never on the hot path.
 */

// Zero-width characters and joiners, bidirectional marks, embeddings, overrides and
// isolates, the word joiner and invisible operators, the Arabic letter mark, the Mongolian
// vowel separator and the byte-order mark: each is invisible, and each can hide a word
// from a reader or reorder what they see.
const HIDDEN_CHARACTER =
  /[\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/u;

/** The first invisible or direction-changing character, as `U+XXXX`. */
export function findHiddenCharacter(text: string): string | null {
  const match = HIDDEN_CHARACTER.exec(text);
  if (!match) return null;
  return `U+${match[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

// Checked on the NFKC form, so full-width look-alikes (＜ｂ＞, ［x］（y）) count as what
// they show.
const MARKUP: readonly (readonly [RegExp, string])[] = [
  [/<\/?[a-z][a-z0-9-]*(?:\s[^<>]*)?\/?>/i, 'an HTML tag'],
  [/<!--|<![a-z[]|<\?[a-z]/i, 'an HTML tag'],
  [/!\[[^\]]*\]\s*\(/, 'a Markdown image'],
  [/\[[^\]]*\]\s*\(/, 'a Markdown link'],
  [/\[[^\]]+\]\s*\[[^\]]*\]|^\s*\[[^\]]+\]:/m, 'a Markdown link'],
  [/<[a-z][a-z0-9+.-]{1,31}:[^\s<>]*>|<[^\s<>@]+@[^\s<>@]+>/i, 'a Markdown autolink'],
];

/** The kind of HTML or Markdown link markup in the text, e.g. "a Markdown link". */
export function findMarkup(text: string): string | null {
  const shown = text.normalize('NFKC');
  for (const [pattern, kind] of MARKUP) {
    if (pattern.test(shown)) return kind;
  }
  return null;
}

// Characters that change nothing a reader sees: the soft hyphen and the hidden characters
// above (invisible marks such as the combining grapheme joiner go with the accents).
// Dropped before matching so that "Spon\u00adsored" is still the word "sponsored".
const IGNORABLE =
  /[\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/gu;

/**
 * The text as the word rules read it: compatibility forms folded (full-width letters,
 * ligatures), accents and other marks dropped, lower case with ß, œ and æ spelled out, invisible
 * characters gone, and every run of anything but letters and digits one space, with a
 * space at each end, so that `includes(' ignore previous ')` matches whole words only.
 */
export function foldForMatching(text: string): string {
  const letters = decompose(text.replace(IGNORABLE, '')).toLowerCase();
  return ` ${letters.replace(/[^\p{L}\p{N}]+/gu, ' ').trim()} `;
}

/** A phrase as `foldForMatching` leaves it, without the surrounding spaces. */
const fold = (phrase: string): string => foldForMatching(phrase).trim();

// Every disclosure label, and phrases that deny being an ad, in the four languages the
// issue names and the others the labels cover. "Sponsored" in a campaign's text would
// show the reader a second label that the advertiser wrote; "not an ad" would contradict
// the real one.
const DISCLOSURE_PHRASES: readonly string[] = [
  ...Object.values(DISCLOSURE_LABELS),
  ...['unsponsored', 'gesponsert', 'sponsorisé', 'sponsorisée', 'patrocinada'],
  ...['not an ad', 'not an advert', 'not an advertisement', 'not advertising', "isn't an ad"],
  ...['kein werbung', 'keine werbung', 'keine reklame', 'keine werbeanzeige'],
  ...['pas une pub', 'pas de la pub', "ceci n'est pas une pub"],
  ...['no es publicidad', 'no es un anuncio', 'no es una publicidad', 'no es propaganda'],
  ...['non è pubblicità', 'non è una pubblicità', 'geen advertentie', 'não é publicidade'],
  ...['não é um anúncio', 'não é anúncio'],
].map(fold);

const UNIQUE_DISCLOSURE_PHRASES = [...new Set(DISCLOSURE_PHRASES)];

/** A disclosure label, or a denial of one, that the text contains, folded ("publicite"). */
export function findDisclosureImitation(text: string): string | null {
  const folded = foldForMatching(text);
  return UNIQUE_DISCLOSURE_PHRASES.find((phrase) => folded.includes(` ${phrase} `)) ?? null;
}

// Phrases that address the model rather than the reader, in English, German, French and
// Spanish, as they read after `foldForMatching` (no accents, no punctuation, one space
// between words, a space at each end). Written as patterns where one verb takes several
// forms and fillers ("ignore all previous", "ignorez toutes les instructions"); the rest
// are plain phrases. Deliberately strict, since an advertiser can always say it another
// way; but "rules" is left out ("forget the rules of fashion" is ordinary ad copy).
const INSTRUCTION_PATTERNS: readonly RegExp[] = [
  // English
  / (ignore|disregard|forget|override|bypass) ((all|any|the|your|my|of|these|those|every|everything|earlier|prior|previous|above|preceding) )*(previous|prior|above|earlier|preceding|foregoing|former|original|system|instructions?|prompts?|directives?) /,
  / (system|developer) (prompt|prompts|instructions|message) /,
  / (you are|you re|youre) now /,
  / act as /,
  / pretend (to be|you are|you re|that you are) /,
  / (new|updated|revised) instructions /,
  / (role ?play|roleplay) as /,
  / from now on (you|your) /,
  / do anything now /,
  / developer mode /,
  / (tell|inform|remind) the user /,
  / the (assistant|ai|model|chatbot) (must|should|will|shall) /,
  // German
  / (ignoriere|ignorier|ignoriert|ignorieren|vergiss|vergesst|vergessen|missachte|missachten|verwirf|verwirft|ubergehe|uberspringe) ((sie|alle|die|deine|ihre|eure|samtliche|jegliche|bisherigen|vorherigen|obigen|vorigen|fruheren|vorangegangenen|oben|genannten) )*(anweisungen|anweisung|befehle|instruktionen|vorgaben|prompt|prompts|systemprompt) /,
  / (ignoriere|ignorier|ignorieren sie|vergiss|vergessen sie) alles (davor|bisherige|vorherige|obige|oben|zuvor|bisher) /,
  / (systemprompt|systemanweisung|systemanweisungen|system anweisungen) /,
  / du bist (jetzt|nun|ab sofort|ab jetzt|von nun an) /,
  / (ab jetzt|ab sofort|von nun an) (bist du|sind sie) /,
  / neue (anweisungen|instruktionen|befehle) /,
  / (verhalte|verhalten) (dich|sie sich) (wie|als) /,
  / (tu|tue|tun sie) so als /,
  / (gib|gebe) dich als /,
  / agiere als /,
  / (sag|sage|sagen sie) dem (nutzer|benutzer|anwender) /,
  // French
  / (ignore|ignorez|ignorer|ignores|oublie|oubliez|oublier|neglige|negligez) ((toutes|tous|toute|tout|les|la|le|l|tes|vos|ces|des|mes|nos) )*(instructions|consignes|directives|indications|prompts?) /,
  / (ignore|ignorez|ignorer|oublie|oubliez|oublier) (tout )?(ce qui precede|ce qui est au dessus|ce qui est ci dessus|ci dessus|les messages precedents) /,
  / (prompt|invite|instructions|consignes) (systeme|du systeme) /,
  / (tu es|vous etes) (maintenant|desormais|a present|dorenavant) /,
  / (desormais|dorenavant|a partir de maintenant|a present) (tu es|vous etes|tu dois|vous devez) /,
  / (agis|agissez) (comme|en tant que) /,
  / (fais|faites) semblant /,
  / nouvelles (instructions|consignes|directives) /,
  / (joue|jouez) le role /,
  / (dis|dites) a l utilisateur /,
  // Spanish
  / (ignora|ignore|ignoren|ignorar|olvida|olvide|olviden|olvidar|descarta|descarte|omite|omita|desestima) ((todas|todos|todo|las|los|la|lo|tus|sus|mis|estas|esas) )*(instrucciones|indicaciones|directrices|anterior|anteriores|prompts?) /,
  / (prompt|mensaje|instrucciones|indicaciones) del sistema /,
  / (ahora|ya) eres /,
  / a partir de ahora (eres|seras|actua|actuas) /,
  / (actua|actue|actuen) como /,
  / finge (ser|que eres) /,
  / haz de cuenta /,
  / nuevas (instrucciones|indicaciones|ordenes) /,
  / (juega|interpreta) el papel /,
  / (dile|di) al usuario /,
];

// The turn markers of common chat templates, which no ad needs and which tell a model that
// a new speaker begins. Checked on the text as written, since folding drops their brackets.
const CHAT_TEMPLATE_TOKEN = /<\||\|>|\[\/?inst\]|<<\/?sys>>/i;

/** An instruction aimed at the assistant that the text contains, folded, or a template token. */
export function findInstruction(text: string): string | null {
  const token = CHAT_TEMPLATE_TOKEN.exec(text.normalize('NFKC'));
  if (token) return token[0];
  const folded = foldForMatching(text);
  for (const pattern of INSTRUCTION_PATTERNS) {
    const match = pattern.exec(folded);
    if (match) return match[0].trim();
  }
  return null;
}
