import {
  type LabelledConversation,
  type LabelledSet,
  SET_LANGUAGES,
  type SetLanguage,
} from './labelled-set';

/** The goals every language must meet (shares, 0–1). */
export const RELEVANCE_GOALS = { precision: 0.97, rightFill: 0.95, falseFills: 0.02 } as const;

/** What a server answered for one conversation: the id of the ad it served, or null. */
export type Serve = (
  language: SetLanguage,
  conversation: LabelledConversation,
) => Promise<string | null>;

export interface LanguageScore {
  language: SetLanguage | 'all';
  conversations: number;
  /** Conversations with a right ad, and those of them that got one of their right ads. */
  withFit: number;
  rightServed: number;
  /** Conversations without a right ad, and those of them that got an ad anyway. */
  withoutFit: number;
  falseFills: number;
  /** Ads served in all, and those that were right. */
  served: number;
  /** Right ad among ads served; 1 when none was served. */
  precision: number;
  /** Right ad among conversations that have one. */
  rightFill: number;
  /** Ads among conversations that have none. */
  falseFillRate: number;
  /** Cases that went wrong, for the report: id, what was served, what was right. */
  misses: { id: string; served: string | null; expected: string[]; note?: string }[];
}

/** Serves every conversation of the set and scores the answers, per language and in all. */
export async function evaluate(set: LabelledSet, serve: Serve): Promise<LanguageScore[]> {
  const scores: LanguageScore[] = [];
  const all = emptyScore('all');
  for (const language of SET_LANGUAGES) {
    const score = emptyScore(language);
    for (const conversation of set.conversations[language]) {
      const served = await serve(language, conversation);
      for (const target of [score, all]) tally(target, conversation, served);
    }
    scores.push(finish(score));
  }
  scores.push(finish(all));
  return scores;
}

/** Whether a score holds its language's recorded floor (always, for 'all'). */
export function holdsFloor(score: LanguageScore, floors: LabelledSet['floors']): boolean {
  if (score.language === 'all') return true;
  const floor = floors[score.language];
  return (
    score.precision >= floor.precision &&
    score.rightFill >= floor.rightFill &&
    score.falseFillRate <= floor.falseFills
  );
}

/** Whether a score meets every goal. */
export function meetsGoals(score: LanguageScore): boolean {
  return (
    score.precision >= RELEVANCE_GOALS.precision &&
    score.rightFill >= RELEVANCE_GOALS.rightFill &&
    score.falseFillRate <= RELEVANCE_GOALS.falseFills
  );
}

function emptyScore(language: SetLanguage | 'all'): LanguageScore {
  return {
    language,
    conversations: 0,
    withFit: 0,
    rightServed: 0,
    withoutFit: 0,
    falseFills: 0,
    served: 0,
    precision: 1,
    rightFill: 1,
    falseFillRate: 0,
    misses: [],
  };
}

function tally(score: LanguageScore, conversation: LabelledConversation, served: string | null) {
  const { expected } = conversation;
  score.conversations++;
  if (served !== null) score.served++;
  const right = served !== null && expected.includes(served);
  if (expected.length > 0) {
    score.withFit++;
    if (right) score.rightServed++;
  } else {
    score.withoutFit++;
    if (served !== null) score.falseFills++;
  }
  if (!right && (served !== null || expected.length > 0)) {
    const { id, note } = conversation;
    score.misses.push({ id, served, expected, note });
  }
}

function finish(score: LanguageScore): LanguageScore {
  return {
    ...score,
    precision: score.served === 0 ? 1 : score.rightServed / score.served,
    rightFill: score.withFit === 0 ? 1 : score.rightServed / score.withFit,
    falseFillRate: score.withoutFit === 0 ? 0 : score.falseFills / score.withoutFit,
  };
}

const percent = (share: number) => `${(share * 100).toFixed(1)}%`;

/** The scores as a table, goals in the heading, then every miss. */
export function formatScores(
  scores: readonly LanguageScore[],
  floors: LabelledSet['floors'],
  withMisses: boolean,
): string {
  const { precision, rightFill, falseFills } = RELEVANCE_GOALS;
  const lines = [
    `language  cases  precision (goal ≥${percent(precision)})  right-ad fill (goal ≥${percent(rightFill)})  false fills (goal ≤${percent(falseFills)})  goals  floor`,
  ];
  for (const score of scores) {
    lines.push(
      [
        score.language.padEnd(8),
        String(score.conversations).padStart(5),
        `${percent(score.precision)} (${score.rightServed}/${score.served})`.padStart(22),
        `${percent(score.rightFill)} (${score.rightServed}/${score.withFit})`.padStart(24),
        `${percent(score.falseFillRate)} (${score.falseFills}/${score.withoutFit})`.padStart(22),
        meetsGoals(score) ? '   met' : 'missed',
        holdsFloor(score, floors) ? ' held' : ' BELOW',
      ].join(' '),
    );
  }
  if (withMisses) {
    const misses = scores.filter((score) => score.language !== 'all').flatMap((s) => s.misses);
    if (misses.length > 0) lines.push('', 'Wrong or missing ads:');
    for (const miss of misses) {
      lines.push(
        `  ${miss.id}: served ${miss.served ?? 'no ad'}, right ${miss.expected.join(' or ') || 'no ad'}${miss.note === undefined ? '' : ` (${miss.note})`}`,
      );
    }
  }
  return lines.join('\n');
}
