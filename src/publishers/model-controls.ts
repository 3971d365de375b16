import { PPM } from '@/common/money';
import type { AiModel } from './entities/ai-model.entity';

/*
 * A publisher's controls over the ads one of its AI models is served: the categories,
 * advertisers and keywords it blocks, the least relevance it accepts and how often one
 * conversation (`session_id`) may see an ad. Set through `PUT /api/models/{id}/controls`,
 * stored on the model's row, and carried in every cached key credential of the model
 * (`KeyCredential.controls`), so that fetch-ads applies them without a database read.
 */

export const MAX_BLOCKED_ADVERTISERS = 100;
export const MAX_BLOCKED_KEYWORDS = 200;
export const MAX_BLOCKED_KEYWORD_LENGTH = 100;
export const MAX_FREQUENCY_CAP_ADS = 100;
/** One day. */
export const MAX_FREQUENCY_CAP_MINUTES = 1440;

/** At most `maxAds` ads per `session_id` in `perMinutes` minutes from the session's first ad. */
export interface FrequencyCap {
  maxAds: number;
  perMinutes: number;
}

/** A model's controls in the service's terms; `DEFAULT_CONTROLS` until the publisher sets them. */
export interface ModelControls {
  /** IAB content category ids (`CONTENT_CATEGORIES`): their campaigns are not served. */
  blockedCategories: string[];
  /** Advertiser ids, as the publisher gave them: their campaigns are not served. */
  blockedAdvertisers: string[];
  /** Normalised with `normaliseKeyword`: campaigns targeting one of them are not served. */
  blockedKeywords: string[];
  /** 0–1 of the best possible relevance: an ad less relevant than this is not served. */
  relevanceFloor: number;
  /** null: no cap. */
  frequencyCap: FrequencyCap | null;
}

/** A model that never set controls serves as before they existed: nothing blocked, no floor, no cap. */
export const DEFAULT_CONTROLS: Readonly<ModelControls> = Object.freeze({
  blockedCategories: [],
  blockedAdvertisers: [],
  blockedKeywords: [],
  relevanceFloor: 0,
  frequencyCap: null,
});

/** The model's row's control columns: lists stored as JSON (null: empty), the floor in ppm. */
export type ControlColumns = Pick<
  AiModel,
  | 'blockedCategories'
  | 'blockedAdvertisers'
  | 'blockedKeywords'
  | 'relevanceFloorPpm'
  | 'frequencyCapAds'
  | 'frequencyCapMinutes'
>;

/** The controls a model's row holds. */
export function controlsOf(model: ControlColumns): ModelControls {
  return {
    blockedCategories: model.blockedCategories ?? [],
    blockedAdvertisers: model.blockedAdvertisers ?? [],
    blockedKeywords: model.blockedKeywords ?? [],
    relevanceFloor: model.relevanceFloorPpm / PPM,
    frequencyCap:
      model.frequencyCapAds === null || model.frequencyCapMinutes === null
        ? null
        : { maxAds: model.frequencyCapAds, perMinutes: model.frequencyCapMinutes },
  };
}

/** The columns that store `controls` (an empty list as null, so unset and emptied read alike). */
export function controlColumns(controls: ModelControls): ControlColumns {
  const list = (values: string[]) => (values.length === 0 ? null : values);
  return {
    blockedCategories: list(controls.blockedCategories),
    blockedAdvertisers: list(controls.blockedAdvertisers),
    blockedKeywords: list(controls.blockedKeywords),
    relevanceFloorPpm: Math.round(controls.relevanceFloor * PPM),
    frequencyCapAds: controls.frequencyCap?.maxAds ?? null,
    frequencyCapMinutes: controls.frequencyCap?.perMinutes ?? null,
  };
}

/**
 * A model's controls as fetch-ads applies them: built once per cached key credential, with
 * sets for constant-time look-ups, so that a request pays nothing to convert them.
 */
export interface ServingControls {
  /** False when no control is set: fetch-ads may skip every check. */
  any: boolean;
  blockedCategories: ReadonlySet<string>;
  blockedAdvertisers: ReadonlySet<string>;
  blockedKeywords: ReadonlySet<string>;
  relevanceFloor: number;
  frequencyCap: Readonly<FrequencyCap> | null;
}

export function servingControls(controls: ModelControls): ServingControls {
  return Object.freeze({
    any:
      controls.blockedCategories.length > 0 ||
      controls.blockedAdvertisers.length > 0 ||
      controls.blockedKeywords.length > 0 ||
      controls.relevanceFloor > 0 ||
      controls.frequencyCap !== null,
    blockedCategories: new Set(controls.blockedCategories),
    blockedAdvertisers: new Set(controls.blockedAdvertisers),
    blockedKeywords: new Set(controls.blockedKeywords),
    relevanceFloor: controls.relevanceFloor,
    frequencyCap: controls.frequencyCap && Object.freeze({ ...controls.frequencyCap }),
  });
}
