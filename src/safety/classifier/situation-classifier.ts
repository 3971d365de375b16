import { FEATURE_BITS, TextFeatures } from './text-features';

/** In the bucket table: no feature of the vocabulary hashes there. */
const NO_ROW = 0xffff;

/** The label of talk that is not on a sensitive topic. */
export const ORDINARY = 'ordinary';

/** The trained model as `npm run safety:train` writes it (safety-model.json). */
export interface SafetyModel {
  /** What it was trained on, for the record. */
  trainedOn: { utterances: number; corpusSha256: string };
  /** A text is on a sensitive topic when its best topic outscores `ordinary` by this much. */
  threshold: number;
  /** The classes: the sensitive topics and `ordinary`. */
  labels: string[];
  biases: number[];
  /** The features the model knows (bucket ids, ascending), weighted or not. */
  vocabulary: number[];
  /** Per label, each vocabulary feature's weight in thousandths (wink-perceptron's 3 decimals). */
  weights: number[][];
}

/** Class scores of one text. */
export interface Scores {
  readonly labels: readonly string[];
  readonly values: Float64Array;
}

/**
 * The trained situation classifier, served: the multi-class averaged perceptron that
 * wink-perceptron trains (scripts/safety/train-model.ts), laid out flat for the request
 * path: a table from bucket to feature row, and each row's weights side by side, so a
 * request costs one look-up per feature and a few additions, with no string or object per
 * feature. (The library's own `predict` takes an object keyed by feature names and answers
 * only a label, so the service does not call it.) A class's score is its bias + Σ weight ×
 * 1/√n over the n distinct vocabulary features in the text; a unit test holds the best class
 * to the library's `predict` on the whole corpus.
 */
export class SituationClassifier {
  readonly labels: readonly string[];
  readonly threshold: number;
  /** Each bucket's feature row, NO_ROW if none: 16 bits, half the bytes in cache. */
  private readonly rowOfBucket = new Uint16Array(1 << FEATURE_BITS).fill(NO_ROW);
  /** Row r's weight for label i at r × labels + i, in thousandths (half the bytes to read). */
  private readonly weights: Int16Array;
  private readonly biases: Float64Array;
  private readonly ordinary: number;
  /** Which text last counted each row (a byte): a feature counts once per text, as in training. */
  private readonly seen: Uint8Array;
  private stamp = 0;
  private readonly features = new TextFeatures();
  private readonly sums: Float64Array;

  constructor(model: SafetyModel) {
    const { labels, vocabulary } = model;
    const width = labels.length;
    const wellFormed =
      vocabulary.length < NO_ROW &&
      model.biases.length === width &&
      model.weights.length === width &&
      model.weights.every((column) => column.length === vocabulary.length);
    if (!wellFormed) throw new Error('safety model: labels, biases and weights do not agree');
    this.labels = labels;
    this.threshold = model.threshold;
    this.ordinary = labels.indexOf(ORDINARY);
    if (this.ordinary < 0) throw new Error(`safety model: no "${ORDINARY}" class`);
    this.weights = new Int16Array(vocabulary.length * width);
    this.biases = Float64Array.from(model.biases);
    this.sums = new Float64Array(width);
    this.seen = new Uint8Array(vocabulary.length);
    vocabulary.forEach((bucket, row) => {
      this.rowOfBucket[bucket] = row;
      for (let i = 0; i < width; i++) {
        const weight = model.weights[i][row];
        if (Math.abs(weight) > 0x7fff) throw new Error('safety model: a weight beyond ±32.767');
        this.weights[row * width + i] = weight;
      }
    });
  }

  /** The scores of `text[start, end)`; the array is reused by the next call. */
  scores(text: string, start = 0, end = text.length): Scores {
    const count = this.features.read(text, start, end);
    const buckets = this.features.buckets;
    const { rowOfBucket, weights, seen, sums } = this;
    const width = sums.length;
    // A new stamp per text; on wrap-around, forget every row's old stamp.
    if (++this.stamp === 0x100) {
      seen.fill(0);
      this.stamp = 1;
    }
    const stamp = this.stamp;
    sums.fill(0);
    let known = 0;
    for (let f = 0; f < count; f++) {
      const row = rowOfBucket[buckets[f]];
      if (row === NO_ROW || seen[row] === stamp) continue;
      seen[row] = stamp;
      known++;
      const base = row * width;
      for (let i = 0; i < width; i++) sums[i] += weights[base + i];
    }
    const value = known > 0 ? 1 / Math.sqrt(known) / 1000 : 0;
    for (let i = 0; i < width; i++) sums[i] = this.biases[i] + value * sums[i];
    return { labels: this.labels, values: sums };
  }

  /** How far the best sensitive topic outscores ordinary talk, and which topic it is. */
  margin(text: string, start = 0, end = text.length): { topic: string; margin: number } {
    const { values } = this.scores(text, start, end);
    let best = -1;
    for (let i = 0; i < values.length; i++) {
      if (i !== this.ordinary && (best < 0 || values[i] > values[best])) best = i;
    }
    return { topic: this.labels[best], margin: values[best] - values[this.ordinary] };
  }

  /** The sensitive topic `text[start, end)` is about, or null for ordinary talk. */
  topicOf(text: string, start = 0, end = text.length): string | null {
    const { topic, margin } = this.margin(text, start, end);
    return margin >= this.threshold ? topic : null;
  }
}
