import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The labelled relevance set kept in `test/fixtures/relevance/` (its README says how to add
 * a case): a catalog of campaigns as operators write them, and conversations in four
 * languages with the keywords a publisher would send and the ads a person would call right.
 */

export const SET_LANGUAGES = ['en', 'de', 'fr', 'es'] as const;
export type SetLanguage = (typeof SET_LANGUAGES)[number];

export interface LabelledCampaign {
  id: string;
  category: string;
  advertiser: string;
  name: string;
  text: string;
  target_url: string;
  bid_per_click: number;
  keywords: string[];
  keyword_translations?: Record<string, string[]>;
}

export type CaseKind = 'fit' | 'no-fit' | 'tempt-common-word' | 'tempt-homonym';

export interface LabelledConversation {
  id: string;
  conversation: string;
  keywords: string[];
  /** Ids of the campaigns a person would call right; empty when none is. */
  expected: string[];
  kind: CaseKind;
  note?: string;
}

/** The figures a change may not lower, per language (`floor.json` beside the set). */
export interface RelevanceFloor {
  precision: number;
  rightFill: number;
  falseFills: number;
}

export interface LabelledSet {
  campaigns: LabelledCampaign[];
  conversations: Record<SetLanguage, LabelledConversation[]>;
  floors: Record<SetLanguage, RelevanceFloor>;
}

/** The set's folder, found from here upwards (this file runs from `bench/` and from `dist/bench/`). */
function setFolder(): string {
  for (let folder = __dirname; ; folder = dirname(folder)) {
    const candidate = join(folder, 'test', 'fixtures', 'relevance');
    if (existsSync(candidate)) return candidate;
    if (dirname(folder) === folder) throw new Error('test/fixtures/relevance not found');
  }
}

export function loadLabelledSet(): LabelledSet {
  const folder = setFolder();
  const read = <T>(file: string): T => JSON.parse(readFileSync(join(folder, file), 'utf8')) as T;
  const { campaigns } = read<{ campaigns: LabelledCampaign[] }>('campaigns.json');
  const conversations = Object.fromEntries(
    SET_LANGUAGES.map((language) => [
      language,
      read<LabelledConversation[]>(`conversations.${language}.json`),
    ]),
  ) as Record<SetLanguage, LabelledConversation[]>;
  const floors = read<Record<SetLanguage, RelevanceFloor>>('floor.json');
  return { campaigns, conversations, floors };
}
