import { generateKey, type GeneratedKey, hashKey, keyShape } from '@/common/secret-keys';

/** Advertisers' keys for the conversions API, made as publishers' keys are. */
export const ADVERTISER_KEY_PREFIX = 'adl_adv_';
const KEY_SHAPE = keyShape([ADVERTISER_KEY_PREFIX]);

export const generateAdvertiserKey = (): GeneratedKey => generateKey(ADVERTISER_KEY_PREFIX);

export const hashAdvertiserKey = hashKey;

export const looksLikeAdvertiserKey = (value: string): boolean => KEY_SHAPE.test(value);
