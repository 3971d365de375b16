/**
 * A publisher's own moderation verdict on the turn, in the shape of OpenAI's moderation
 * result (`flagged`, `categories`, `category_scores`), which other moderation tools emit too.
 */
export interface PublisherModeration {
  flagged: boolean;
  categories?: Readonly<Record<string, boolean>>;
}

/**
 * Whether the publisher's moderation flagged the turn: `flagged`, or any category set
 * (a tool that fills in categories without the summary flag is taken at its word).
 */
export function flaggedByPublisher(moderation: PublisherModeration | undefined | null): boolean {
  if (!moderation) return false;
  if (moderation.flagged === true) return true;
  const categories = moderation.categories;
  if (!categories) return false;
  for (const key in categories) if (categories[key] === true) return true;
  return false;
}
