import type { CreatedApiKey } from './api';

/**
 * A key created on one page and shown on the next (a new model's first key): held in memory
 * only, and taken once, so its secret is never shown twice nor stored anywhere.
 */
let pending: { modelId: string; key: CreatedApiKey } | null = null;

export function handOffNewKey(modelId: string, key: CreatedApiKey): void {
  pending = { modelId, key };
}

export function takeNewKey(modelId: string): CreatedApiKey | null {
  if (pending?.modelId !== modelId) return null;
  const { key } = pending;
  pending = null;
  return key;
}
