import { TextFeatures } from './text-features';

const reader = new TextFeatures();
const features = (text: string) => {
  const count = reader.read(text, 0, text.length);
  return [...reader.buckets.subarray(0, count)].sort((a, b) => a - b);
};

describe('TextFeatures', () => {
  it('reads a text however it is cased, accented or punctuated', () => {
    expect(features('Él se tragó una PILA')).toEqual(features('el se trago una pila'));
    expect(features('Straße-Überfall')).toEqual(features('strasse uberfall'));
    expect(features('e\u0301te\u0301')).toEqual(features('été'));
  });

  it('shares most pieces between a word and its inflection or typo', () => {
    const a = new Set(features('verschluckt'));
    const b = features('verschluckte');
    expect(b.filter((bucket) => a.has(bucket)).length).toBeGreaterThan(b.length / 2);
  });

  it('reads long texts and characters that fold to two letters', () => {
    const text = 'ß'.repeat(5_000);
    expect(features(text).length).toBeGreaterThan(0);
  });
});
