import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SafetyModel } from './situation-classifier';

/**
 * The trained model, written by `npm run safety:train` beside this file's source and copied
 * beside its build by `nest build` (an asset in nest-cli.json).
 */
export const MODEL_PATH = join(__dirname, 'safety-model.json').replace(
  /([\\/])dist\1src\1/,
  '$1src$1',
);

/** Reads the model the service was built with (in dist/ when built, in src/ under tests). */
export function loadSafetyModel(path = join(__dirname, 'safety-model.json')): SafetyModel {
  return JSON.parse(readFileSync(path, 'utf8')) as SafetyModel;
}
