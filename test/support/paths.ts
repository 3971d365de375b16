import { join } from 'node:path';

/**
 * The repository's root, for suites that read or run its files (openapi.json, scripts/…).
 * Computed here, at a fixed place, so a suite can move between folders of test/ unchanged.
 */
export const ROOT = join(__dirname, '..', '..');
