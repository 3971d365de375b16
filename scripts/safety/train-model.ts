import perceptron, { type Example } from 'wink-perceptron';
import { TextFeatures } from '@/safety/classifier/text-features';
import { type SafetyModel, SituationClassifier } from '@/safety/classifier/situation-classifier';
import type { Utterance } from './corpus';

/** Passes over the training part (wink-perceptron's default is 9, which cross-validation kept). */
export const PASSES = 9;
/**
 * A feature seen in fewer utterances than this is left out: noise, and weight in the file.
 * At 2 the sixth batch of the corpus (13,500 utterances) passed the 65,535 rows the service's
 * 16-bit table holds.
 */
const MIN_UTTERANCES = 3;

/** Each utterance's distinct feature buckets. */
export function featureSets(utterances: readonly Utterance[]): number[][] {
  const reader = new TextFeatures();
  return utterances.map(({ text }) => {
    const count = reader.read(text, 0, text.length);
    return [...new Set(reader.buckets.subarray(0, count))];
  });
}

/**
 * The library's input for a text's features in the vocabulary: each worth 1/√n, so that a
 * long turn and a short one weigh alike (the classifier computes the same).
 */
export function featureValues(buckets: readonly number[]): Record<string, number> {
  const value = buckets.length > 0 ? 1 / Math.sqrt(buckets.length) : 0;
  return Object.fromEntries(buckets.map((bucket) => [bucket, value]));
}

/** A fixed shuffle (a seeded PRNG, mulberry32): a perceptron learns badly from sorted data. */
export function shuffled<T>(items: readonly T[], seed = 42): T[] {
  let state = seed;
  const random = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/**
 * Trains wink-perceptron's averaged perceptron on the utterances, in a fixed shuffled order
 * and without the library's own (unseeded) shuffling: the same corpus gives the same model.
 */
export function trainModel(utterances: readonly Utterance[], threshold: number): SafetyModel {
  const order = shuffled(utterances.map((_, i) => i));
  const sets = featureSets(utterances);
  const frequency = new Map<number, number>();
  for (const set of sets) for (const b of set) frequency.set(b, (frequency.get(b) ?? 0) + 1);
  const kept = sets.map((set) => set.filter((b) => (frequency.get(b) ?? 0) >= MIN_UTTERANCES));
  const examples: Example[] = order.map((i) => [
    featureValues(kept[i]),
    { label: utterances[i].topic },
  ]);
  const learner = perceptron();
  learner.defineConfig({ maxIterations: PASSES, shuffleData: false });
  learner.learn(examples);
  const vocabulary = [...frequency]
    .filter(([, seen]) => seen >= MIN_UTTERANCES)
    .map(([bucket]) => bucket)
    .sort((a, b) => a - b);
  return compact(learner.exportJSON(), vocabulary, threshold, utterances.length);
}

type WinkExport = [
  Record<string, Record<string, number>>,
  Record<string, number>,
  object,
  unknown[],
];

/**
 * The library's export (feature → label → weight, 3 decimals) as columns per label over the
 * vocabulary, in thousandths: a third of the size, and what the service lays out flat.
 */
function compact(
  json: string,
  vocabulary: number[],
  threshold: number,
  utterances: number,
): SafetyModel {
  const [weights, biases] = JSON.parse(json) as WinkExport;
  const labels = Object.keys(biases).sort();
  return {
    trainedOn: { utterances, corpusSha256: '' },
    threshold,
    labels,
    biases: labels.map((label) => biases[label]),
    vocabulary,
    weights: labels.map((label) =>
      vocabulary.map((bucket) => Math.round((weights[bucket]?.[label] ?? 0) * 1000)),
    ),
  };
}

/** The model in the library's own export format (for comparing with its `predict`). */
export function asWinkExport(model: SafetyModel): string {
  const weights: WinkExport[0] = {};
  model.vocabulary.forEach((bucket, row) => {
    weights[bucket] = Object.fromEntries(
      model.labels.map((label, i) => [label, model.weights[i][row] / 1000]),
    );
  });
  const biases = Object.fromEntries(model.labels.map((label, i) => [label, model.biases[i]]));
  return JSON.stringify([weights, biases, {}, []]);
}

/**
 * Margins from k-fold training: each utterance scored by a model that never saw it. The
 * threshold is chosen on these, so the held-out part is never used to tune.
 */
export function outOfFoldMargins(utterances: readonly Utterance[], folds: number): number[] {
  const margins = new Array<number>(utterances.length);
  for (let fold = 0; fold < folds; fold++) {
    const trainOn = utterances.filter((_, i) => i % folds !== fold);
    const classifier = new SituationClassifier(trainModel(trainOn, 0));
    utterances.forEach((u, i) => {
      if (i % folds === fold) margins[i] = classifier.margin(u.text).margin;
    });
  }
  return margins;
}
