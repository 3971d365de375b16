import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';

/** The labelled utterances of test/fixtures/safety (its README says how they were written). */
export const CORPUS_DIR = join(
  __dirname,
  // scripts/safety, or dist/scripts/safety once built
  __dirname.includes(`${sep}dist${sep}`) ? '../../..' : '../..',
  'test/fixtures/safety',
);

/** The part trained on, and the part fixed before tuning that only measures. */
export type CorpusPart = 'train' | 'heldout';

export interface Utterance {
  language: string;
  /** A sensitive topic, or `ordinary`. */
  topic: string;
  /** What kind of case it is, in a few words (for reading misses). */
  situation: string;
  text: string;
}

/**
 * One part's utterances, file by file in name order, as written. A file is named by its
 * language, and a later batch of the same language by a suffix (`en.jsonl`, `en-2.jsonl`).
 */
export function loadCorpus(part: CorpusPart): Utterance[] {
  const dir = join(CORPUS_DIR, part);
  const files = readdirSync(dir)
    .filter((name) => name.endsWith('.jsonl'))
    .sort();
  return files.flatMap((name) => {
    const language = name.split(/[-.]/)[0];
    return readFileSync(join(dir, name), 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line, index) => {
        const parsed = JSON.parse(line) as Omit<Utterance, 'language'>;
        if (typeof parsed.text !== 'string' || typeof parsed.topic !== 'string') {
          throw new Error(`${part}/${name}:${index + 1}: needs "topic" and "text"`);
        }
        return {
          language,
          topic: parsed.topic,
          situation: parsed.situation ?? '',
          text: parsed.text,
        };
      });
  });
}

/** A fingerprint of a part's files, recorded in the model it trains. */
export function corpusSha256(part: CorpusPart): string {
  const hash = createHash('sha256');
  for (const u of loadCorpus(part)) hash.update(`${u.language}\t${u.topic}\t${u.text}\n`);
  return hash.digest('hex');
}

/**
 * Ordinary conversations of the project's other fixtures, which must still get an ad: the
 * relevance set's conversations and the sensitive-topic fixtures' ordinary talk. The
 * threshold is held above all of them (a development set: never the held-out part).
 */
export function developmentConversations(): string[] {
  const fixtures = join(CORPUS_DIR, '..');
  const read = (path: string): unknown => JSON.parse(readFileSync(join(fixtures, path), 'utf8'));
  return ['en', 'de', 'fr', 'es'].flatMap((language) => {
    const relevance = read(`relevance/conversations.${language}.json`) as
      { conversation: string }[] | { conversations: { conversation: string }[] };
    const list = Array.isArray(relevance) ? relevance : relevance.conversations;
    const sensitive = read(`sensitive/${language}.json`) as {
      ordinary: { conversation: string }[];
    };
    return [...list, ...sensitive.ordinary].map(({ conversation }) => conversation);
  });
}
