import perceptron from 'wink-perceptron';
import { loadCorpus } from './corpus';
import { asWinkExport, featureSets, featureValues } from './train-model';
import { loadSafetyModel } from '@/safety/classifier/model-file';
import { SituationClassifier } from '@/safety/classifier/situation-classifier';

const model = loadSafetyModel();
const classifier = new SituationClassifier(model);

describe('SituationClassifier', () => {
  it("picks the class wink-perceptron's predict picks, on every utterance of the corpus", () => {
    const library = perceptron();
    library.importJSON(asWinkExport(model));
    const vocabulary = new Set(model.vocabulary);
    const utterances = [...loadCorpus('train'), ...loadCorpus('heldout')];
    const sets = featureSets(utterances);
    let compared = 0;
    utterances.forEach((utterance, i) => {
      const { labels, values } = classifier.scores(utterance.text);
      const sorted = [...values].sort((a, b) => b - a);
      // A tie (to the file's 3 decimals) is broken by name in the library, not here.
      if (sorted[0] - sorted[1] < 1e-6) return;
      const best = labels[values.indexOf(sorted[0])];
      const known = sets[i].filter((bucket) => vocabulary.has(bucket));
      expect(library.predict(featureValues(known))).toBe(best);
      compared++;
    });
    expect(compared).toBeGreaterThan(utterances.length * 0.95);
  });

  it('reads a part of a text as that part alone', () => {
    const text = 'which laptop for school? my toddler swallowed a button battery';
    const part = text.slice(25);
    expect([...classifier.scores(text, 25).values]).toEqual([...classifier.scores(part).values]);
  });
});
