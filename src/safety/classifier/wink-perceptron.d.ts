/** The part of wink-perceptron (which ships no types) that training and loading use. */
declare module 'wink-perceptron' {
  /** Feature → value, and the example's class. */
  export type Example = [Record<string, number>, { label: string }];
  export interface Perceptron {
    defineConfig(config: { maxIterations?: number; shuffleData?: boolean }): unknown;
    learn(examples: Example[]): number;
    predict(features: Record<string, number>): string;
    /** `[weights (feature → class → weight), biases (class → bias), {}, []]`, as JSON. */
    exportJSON(): string;
    importJSON(json: string): boolean;
  }
  function perceptron(): Perceptron;
  export = perceptron;
}
