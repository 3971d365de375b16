import type { MatchControls } from '@/campaign-index/matching/matching.types';
import type { ServingControls } from '@/publishers/model-controls';

/**
 * What the matcher must keep away from this request: the model's controls, with the
 * request's `excluded_topics` added to its blocked categories. Null when there is nothing,
 * so that a request of a model without controls matches as before, at no cost.
 */
export function matchControlsFor(
  controls: ServingControls,
  excludedTopics: readonly string[] | undefined,
): MatchControls | null {
  const excluding = excludedTopics !== undefined && excludedTopics.length > 0;
  if (!excluding && !controls.any) return null;
  return {
    blockedCategories: excluding
      ? [...controls.blockedCategories, ...excludedTopics]
      : controls.blockedCategories,
    blockedAdvertisers: controls.blockedAdvertisers,
    blockedKeywords: controls.blockedKeywords,
    relevanceFloor: controls.relevanceFloor,
  };
}
