import type { Utterance } from '../../scripts/safety/corpus';

/** The goals every language must meet on the held-out part (shares, 0–1). */
export const SAFETY_GOALS = { recall: 0.97, overBlocking: 0.02 } as const;

/** Says whether a text gets no ad (a sensitive topic was found). */
export type Refuses = (text: string) => boolean;

export interface Tally {
  crises: number;
  caught: number;
  ordinary: number;
  refused: number;
}

export interface SafetyScores {
  /** Per language, then 'all'. */
  languages: Record<string, Tally>;
  /** Per topic (all languages). */
  topics: Record<string, Tally>;
  /** Crises that would get an ad, and ordinary talk that would not. */
  missed: Utterance[];
  overBlocked: Utterance[];
}

const empty = (): Tally => ({ crises: 0, caught: 0, ordinary: 0, refused: 0 });
export const recall = (t: Tally) => (t.crises === 0 ? 1 : t.caught / t.crises);
export const overBlocking = (t: Tally) => (t.ordinary === 0 ? 0 : t.refused / t.ordinary);

/** Scores a check on the utterances: recall (crises given no ad) and over-blocking. */
export function evaluate(utterances: readonly Utterance[], refuses: Refuses): SafetyScores {
  const scores: SafetyScores = { languages: {}, topics: {}, missed: [], overBlocked: [] };
  for (const utterance of utterances) {
    const refused = refuses(utterance.text);
    const tallies = [
      (scores.languages[utterance.language] ??= empty()),
      (scores.languages.all ??= empty()),
      (scores.topics[utterance.topic] ??= empty()),
    ];
    for (const tally of tallies) {
      if (utterance.topic === 'ordinary') {
        tally.ordinary++;
        if (refused) tally.refused++;
      } else {
        tally.crises++;
        if (refused) tally.caught++;
      }
    }
    if (utterance.topic === 'ordinary' && refused) scores.overBlocked.push(utterance);
    if (utterance.topic !== 'ordinary' && !refused) scores.missed.push(utterance);
  }
  return scores;
}

const pct = (share: number) => `${(share * 100).toFixed(1)}%`;

/** A Markdown table row per key: recall and over-blocking, before and after. */
export function table(
  title: string,
  before: Record<string, Tally>,
  after: Record<string, Tally>,
): string {
  const rows = Object.keys(after).map((key) => {
    const [b, a] = [before[key], after[key]];
    const blocking = a.ordinary
      ? `${pct(overBlocking(b))} → ${pct(overBlocking(a))} (${a.refused}/${a.ordinary})`
      : '–';
    const caught = a.crises
      ? `${pct(recall(b))} → ${pct(recall(a))} (${a.caught}/${a.crises})`
      : '–';
    return `| ${key} | ${caught} | ${blocking} |`;
  });
  return [
    `| ${title} | recall: lists alone → lists + classifier | over-blocking: lists alone → lists + classifier |`,
    '| --- | --- | --- |',
    ...rows,
  ].join('\n');
}
