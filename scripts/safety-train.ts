import { readFileSync, writeFileSync } from 'node:fs';
import { MODEL_PATH } from '@/safety/classifier/model-file';
import { SituationClassifier } from '@/safety/classifier/situation-classifier';
import { stretchesOf } from '@/safety/sensitive-topic-detector.service';
import { userLinesOf } from '@/safety/user-turns';
import {
  corpusSha256,
  developmentConversations,
  loadCorpus,
  type Utterance,
} from './safety/corpus';
import { outOfFoldMargins, trainModel } from './safety/train-model';

/**
 * `npm run safety:train`: trains the situation classifier on the corpus's training part
 * (test/fixtures/safety/train) and writes src/safety/classifier/safety-model.json, which the
 * service loads at start-up. Same corpus, same file: `--check` retrains and fails when the
 * committed file differs (CI runs it).
 *
 * The threshold is chosen on scores from 5-fold training over the training part: the lowest
 * margin at which, in every language, at most MAX_OVERBLOCKING of ordinary talk is refused.
 * Then it is raised, if need be, just above every ordinary conversation of the project's
 * other fixtures (developmentConversations), read as the service reads them. The held-out
 * part plays no role here.
 */
const FOLDS = 5;
const MAX_OVERBLOCKING = 0.01;

function chooseThreshold(utterances: readonly Utterance[], scores: readonly number[]): number {
  const languages = [...new Set(utterances.map((u) => u.language))];
  let threshold = -Infinity;
  for (const language of languages) {
    const ordinary = scores
      .filter((_, i) => utterances[i].language === language && utterances[i].topic === 'ordinary')
      .sort((a, b) => b - a);
    const allowed = Math.floor(ordinary.length * MAX_OVERBLOCKING);
    // Just above the margin of the first ordinary utterance that may not be refused.
    threshold = Math.max(threshold, (ordinary[allowed] ?? 0) + 1e-6);
  }
  return Number(threshold.toFixed(6));
}

function report(utterances: readonly Utterance[], scores: readonly number[], threshold: number) {
  const languages = [...new Set(utterances.map((u) => u.language))];
  for (const language of languages) {
    const mine = utterances
      .map((u, i) => ({ u, score: scores[i] }))
      .filter((x) => x.u.language === language);
    const crises = mine.filter((x) => x.u.topic !== 'ordinary');
    const ordinary = mine.filter((x) => x.u.topic === 'ordinary');
    const caught = crises.filter((x) => x.score >= threshold).length;
    const refused = ordinary.filter((x) => x.score >= threshold).length;
    console.log(
      `${language}: classifier alone, out of fold: recall ${caught}/${crises.length}, ` +
        `over-blocking ${refused}/${ordinary.length}`,
    );
  }
}

function main(): void {
  const check = process.argv.includes('--check');
  const utterances = loadCorpus('train');
  const started = Date.now();
  const scores = outOfFoldMargins(utterances, FOLDS);
  const threshold = chooseThreshold(utterances, scores);
  report(utterances, scores, threshold);
  const model = trainModel(utterances, threshold);
  const classifier = new SituationClassifier(model);
  let highest = -Infinity;
  for (const conversation of developmentConversations()) {
    for (const [text, start] of stretchesOf(userLinesOf(conversation))) {
      highest = Math.max(highest, classifier.margin(text, start, text.length).margin);
    }
  }
  if (highest >= threshold) {
    model.threshold = Number((highest + 1e-6).toFixed(6));
    console.log(`threshold raised from ${threshold} above the development fixtures`);
  }
  model.trainedOn = { utterances: utterances.length, corpusSha256: corpusSha256('train') };
  const text = serialise(model);
  console.log(
    `threshold ${model.threshold}; ${model.vocabulary.length} features; ` +
      `${(text.length / 1024 / 1024).toFixed(1)} MiB; ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
  if (check) {
    const committed = readFileSync(MODEL_PATH, 'utf8');
    if (committed !== text) {
      console.error(`${MODEL_PATH} is not what the corpus trains: run npm run safety:train`);
      process.exitCode = 1;
    } else {
      console.log(`${MODEL_PATH} is what the corpus trains`);
    }
    return;
  }
  writeFileSync(MODEL_PATH, text);
  console.log(`wrote ${MODEL_PATH}`);
}

/** One field a line: the file is large, and its diff should show what changed. */
function serialise(model: ReturnType<typeof trainModel>): string {
  const fields = Object.entries(model).map(
    ([key, value]) => `  ${JSON.stringify(key)}: ${JSON.stringify(value)}`,
  );
  return `{\n${fields.join(',\n')}\n}\n`;
}

main();
