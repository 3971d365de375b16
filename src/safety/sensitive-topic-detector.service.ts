import { Injectable } from '@nestjs/common';
import { DE } from './lists/de';
import { EN } from './lists/en';
import { ES } from './lists/es';
import { FR } from './lists/fr';
import type { SensitiveTopic } from './sensitive-topics';
import { TopicMatcher } from './topic-matcher';

/** The languages whose lists are checked; every text is checked against all of them. */
export const TOPIC_LISTS = [EN, DE, FR, ES];

/**
 * Says whether a fetch-ads request touches a sensitive topic, so that no ad is shown
 * beside it. The lists are compiled once, when the app starts; a check is one pass over
 * the conversation and one over each keyword, with no allocation per word.
 */
@Injectable()
export class SensitiveTopicDetector {
  private readonly matcher = new TopicMatcher(TOPIC_LISTS);

  /** The first sensitive topic found in the conversation or the keywords, or null. */
  topicOf(conversation: string, keywords: readonly string[]): SensitiveTopic | null {
    const found = this.matcher.find(conversation);
    if (found) return found;
    for (const keyword of keywords) {
      const inKeyword = this.matcher.find(keyword);
      if (inKeyword) return inKeyword;
    }
    return null;
  }
}
