import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * test/fixtures/sensitive/<language>.json: conversations that touch a sensitive topic
 * (each must get no ad) and ordinary shopping talk that must still get one, with traps for
 * the lists ("therapist", "shoot portraits", "politique de retour", "die beste …").
 */
export interface SensitiveFixture {
  language: string;
  sensitive: { topic: string; conversation: string }[];
  ordinary: { conversation: string; keywords: string }[];
}

export const FIXTURE_LANGUAGES = ['en', 'de', 'fr', 'es'] as const;

export function sensitiveFixture(language: string): SensitiveFixture {
  const file = join(__dirname, '..', 'fixtures', 'sensitive', `${language}.json`);
  return JSON.parse(readFileSync(file, 'utf8')) as SensitiveFixture;
}
