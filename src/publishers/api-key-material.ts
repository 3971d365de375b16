import { generateKey, type GeneratedKey, hashKey, keyShape } from '@/common/secret-keys';
import type { ApiKeyKind } from './entities/api-key.entity';

/** Publishers' API keys (src/common/secret-keys.ts): the prefix tells a live key from a test key. */
export const API_KEY_PREFIXES: Readonly<Record<ApiKeyKind, string>> = {
  live: 'adl_live_',
  test: 'adl_test_',
};

const API_KEY_SHAPE = keyShape(Object.values(API_KEY_PREFIXES));

export type GeneratedApiKey = GeneratedKey;

export function generateApiKey(kind: ApiKeyKind = 'live'): GeneratedApiKey {
  return generateKey(API_KEY_PREFIXES[kind]);
}

export const hashApiKey = hashKey;

/**
 * A cheap shape check (a live or a test key) so that garbage headers are refused without a
 * database lookup. The kind a key has is the one stored with its hash, not its prefix.
 */
export function looksLikeApiKey(value: string): boolean {
  return API_KEY_SHAPE.test(value);
}
