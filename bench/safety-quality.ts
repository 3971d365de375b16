import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SensitiveTopicDetector, TOPIC_LISTS } from '@/safety/sensitive-topic-detector.service';
import { TopicMatcher } from '@/safety/topic-matcher';
import { CORPUS_DIR, loadCorpus } from '../scripts/safety/corpus';
import { evaluate, overBlocking, recall, SAFETY_GOALS, table } from './safety/evaluate';

/**
 * `npm run safety`: how well no ad is shown beside a crisis, on the held-out part of the
 * safety corpus (test/fixtures/safety/heldout, written apart from the training part and
 * never used to train or tune): recall (crises given no ad) and over-blocking (ordinary talk
 * refused), per language and per topic, for the phrase lists alone and for the lists with
 * the classifier as the service runs them; then every miss. Exits 1 when a language falls
 * below the floor recorded in test/fixtures/safety/floor.json (CI holds it); a goal not met
 * is reported, not failed.
 */
type Floor = Record<string, { recall: number; overBlocking: number }>;

function main(): void {
  const heldOut = loadCorpus('heldout');
  const lists = new TopicMatcher(TOPIC_LISTS);
  const detector = new SensitiveTopicDetector();
  const before = evaluate(heldOut, (text) => lists.find(text) !== null);
  const after = evaluate(heldOut, (text) => detector.topicOf(text, []) !== null);
  const floor = JSON.parse(readFileSync(join(CORPUS_DIR, 'floor.json'), 'utf8')) as Floor;

  console.log(`Safety on the held-out part: ${heldOut.length} utterances\n`);
  console.log(
    `Goals per language: recall ≥ ${SAFETY_GOALS.recall * 100}%, over-blocking ≤ ${SAFETY_GOALS.overBlocking * 100}%\n`,
  );
  console.log(table('language', before.languages, after.languages) + '\n');
  console.log(table('topic', before.topics, after.topics) + '\n');
  console.log(`Crises that would get an ad (${after.missed.length}):`);
  for (const u of after.missed)
    console.log(`- [${u.language}/${u.topic}/${u.situation}] ${u.text}`);
  console.log(`\nOrdinary talk refused (${after.overBlocked.length}):`);
  for (const u of after.overBlocked) console.log(`- [${u.language}/${u.situation}] ${u.text}`);
  console.log('');

  let holds = true;
  for (const [language, tally] of Object.entries(after.languages)) {
    if (language === 'all') continue;
    const [r, o] = [recall(tally), overBlocking(tally)];
    const min = floor[language];
    const verdict = [
      r >= SAFETY_GOALS.recall ? 'recall goal met' : 'recall goal NOT met',
      o <= SAFETY_GOALS.overBlocking ? 'over-blocking goal met' : 'over-blocking goal NOT met',
    ].join(', ');
    if (!min || r < min.recall || o > min.overBlocking) {
      holds = false;
      console.log(`${language}: BELOW THE FLOOR (${JSON.stringify(min)}); ${verdict}`);
    } else {
      console.log(`${language}: holds its floor; ${verdict}`);
    }
  }
  if (!holds) process.exitCode = 1;
}

main();
