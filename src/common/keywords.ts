/**
 * How a keyword is written, the one definition that campaigns (what operators enter),
 * matching (what publishers send) and publishers' blocked keywords share, so that the same
 * word written differently ("ＡＩ", "Ai ", "ai") always meets itself. In the platform because
 * publishers, the bottom feature module, normalises its blocked keywords with it too.
 */

/** Collapses the keyword's look-alikes: compatibility forms, case and spacing. */
export function normaliseKeyword(raw: string): string {
  // toLowerCase, unlike toLocaleLowerCase, gives the same answer on every server locale.
  return raw.normalize('NFKC').toLowerCase().trim().replace(/\s+/g, ' ');
}

/** Splits `context_keywords` ("AI, machine  learning,ai") into distinct normalised keywords. */
export function parseKeywordList(csv: string): string[] {
  const keywords = new Set<string>();
  for (const part of csv.split(',')) {
    const keyword = normaliseKeyword(part);
    if (keyword !== '') keywords.add(keyword);
  }
  return [...keywords];
}
