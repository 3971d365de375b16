import { normaliseKeyword } from '@/common/keywords';

/**
 * Keywords as campaigns and matching read them; the spelling rule itself is
 * `normaliseKeyword` (src/common/keywords.ts), which publishers' blocked keywords share.
 */
export { normaliseKeyword };

/** Splits `context_keywords` ("AI, machine  learning,ai") into distinct normalised keywords. */
export function parseKeywordList(csv: string): string[] {
  const keywords = new Set<string>();
  for (const part of csv.split(',')) {
    const keyword = normaliseKeyword(part);
    if (keyword !== '') keywords.add(keyword);
  }
  return [...keywords];
}
