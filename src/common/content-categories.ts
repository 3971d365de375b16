/**
 * The tier-1 categories of the IAB Tech Lab Content Taxonomy 3.1: what a campaign is about
 * (set by operators) and what a publisher may block per model. Copied from "Content
 * Taxonomies/Content Taxonomy 3.1.tsv" of github.com/InteractiveAdvertisingBureau/Taxonomies
 * (commit 6dc67c7, July 2025; Creative Commons Attribution 3.0), the rows without a tier 2,
 * with their unique ids as written there (some are numbers, some letters and digits, and
 * they are case-sensitive). No npm package ships the list itself (`iab-adcom` and
 * `iab-openrtb` hold type definitions only), hence this copy.
 *
 * The file imports nothing: the dashboard's browser bundle uses it too.
 */

export interface ContentCategory {
  /** The taxonomy's unique id, e.g. `"596"` or `"JLBCU7"`. */
  id: string;
  name: string;
}

/** In the taxonomy's order (alphabetical by name). */
export const CONTENT_CATEGORIES: readonly ContentCategory[] = [
  { id: '150', name: 'Attractions' },
  { id: '1', name: 'Automotive' },
  { id: '42', name: 'Books and Literature' },
  { id: '52', name: 'Business and Finance' },
  { id: '123', name: 'Careers' },
  { id: '80DV8O', name: 'Communication' },
  { id: '380', name: 'Crime' },
  { id: '381', name: 'Disasters' },
  { id: '132', name: 'Education' },
  { id: 'JLBCU7', name: 'Entertainment' },
  { id: '8VZQHL', name: 'Events' },
  { id: '186', name: 'Family and Relationships' },
  { id: '201', name: 'Fine Art' },
  { id: '210', name: 'Food & Drink' },
  { id: 'SPSHQ5', name: 'Genres' },
  { id: '223', name: 'Healthy Living' },
  { id: '239', name: 'Hobbies & Interests' },
  { id: '1KXCLD', name: 'Holidays' },
  { id: '274', name: 'Home & Garden' },
  { id: '383', name: 'Law' },
  { id: '286', name: 'Medical Health' },
  { id: '163', name: 'Personal Celebrations & Life Events' },
  { id: '391', name: 'Personal Finance' },
  { id: '422', name: 'Pets' },
  { id: '386', name: 'Politics' },
  { id: '432', name: 'Pop Culture' },
  { id: '441', name: 'Real Estate' },
  { id: '453', name: 'Religion & Spirituality' },
  { id: '464', name: 'Science' },
  { id: 'v9i3On', name: 'Sensitive Topics' },
  { id: '473', name: 'Shopping' },
  { id: '483', name: 'Sports' },
  { id: '552', name: 'Style & Fashion' },
  { id: '596', name: 'Technology & Computing' },
  { id: '653', name: 'Travel' },
  { id: '680', name: 'Video Gaming' },
  { id: '389', name: 'War and Conflicts' },
];

/** Every category id, for validation (`@IsIn`) and the OpenAPI document's enums. */
export const CONTENT_CATEGORY_IDS: readonly string[] = CONTENT_CATEGORIES.map(({ id }) => id);

/** The longest id is 6 characters; the column leaves room for a later taxonomy's. */
export const CONTENT_CATEGORY_ID_LENGTH = 16;
