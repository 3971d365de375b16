import { evaluate, formatScores, holdsFloor } from './relevance/evaluate';
import { loadLabelledSet } from './relevance/labelled-set';
import { matcherServer } from './relevance/matcher-server';

/**
 * `npm run relevance`: precision, right-ad fill and false fills of the matcher on the
 * labelled set (test/fixtures/relevance), per language, against the goals and the recorded
 * floor (floor.json), with every wrong or missing ad. Exits 1 when a language falls below
 * its floor, so that CI holds it; a goal not met is reported, not failed.
 */
async function main(): Promise<void> {
  const set = loadLabelledSet();
  const scores = await evaluate(set, matcherServer(set));
  const cases = scores.find((score) => score.language === 'all')?.conversations ?? 0;
  console.log(
    `Relevance on the labelled set: ${set.campaigns.length} campaigns, ${cases} conversations\n`,
  );
  console.log(formatScores(scores, set.floors, true));
  if (!scores.every((score) => holdsFloor(score, set.floors))) process.exitCode = 1;
}

void main();
