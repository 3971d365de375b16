import { Injectable } from '@nestjs/common';
import { loadSafetyModel } from './classifier/model-file';
import { SituationClassifier } from './classifier/situation-classifier';
import { DE } from './lists/de';
import { EN } from './lists/en';
import { ES } from './lists/es';
import { FR } from './lists/fr';
import { SENSITIVE_TOPICS, type SensitiveTopic } from './sensitive-topics';
import { TopicMatcher } from './topic-matcher';
import { userLinesOf } from './user-turns';

/** The languages whose lists are checked; every text is checked against all of them. */
export const TOPIC_LISTS = [EN, DE, FR, ES];

/**
 * The classifier reads at most TURN_CHARS of a turn (its last ones) and CLASSIFIED_CHARS in
 * all, newest turn first: the turns an answer (and its ad) will follow. It bounds the
 * classifier's cost per request; the lists still read the whole conversation.
 */
export const TURN_CHARS = 1_000;
export const CLASSIFIED_CHARS = 2_000;
/** A turn shorter than this is read together with the turns before it. */
export const MIN_READ_CHARS = 80;

let loaded: SituationClassifier | undefined;

/**
 * The model, loaded once per process (~80 ms): every app in a process (tests start many)
 * shares it. Sharing is safe as a check runs start to end without yielding.
 */
function sharedClassifier(): SituationClassifier {
  loaded ??= new SituationClassifier(loadSafetyModel());
  return loaded;
}

/**
 * Says whether a fetch-ads request touches a sensitive topic, so that no ad is shown
 * beside it, in two layers. First the phrase lists, exact: one pass over the conversation and
 * one over each keyword (compiled once; no allocation per word). Then the situation
 * classifier (classifier/), trained on test/fixtures/safety, on what the user wrote: it
 * recognises a crisis told in plain words ("she swallowed a button battery") that no list
 * phrase names.
 */
@Injectable()
export class SensitiveTopicDetector {
  private readonly matcher = new TopicMatcher(TOPIC_LISTS);
  private readonly classifier = sharedClassifier();

  constructor() {
    const unknown = this.classifier.labels.filter(
      (label) => label !== 'ordinary' && !(SENSITIVE_TOPICS as readonly string[]).includes(label),
    );
    if (unknown.length > 0)
      throw new Error(`safety model has unknown topics: ${unknown.join(', ')}`);
  }

  /**
   * The first sensitive topic found in the conversation or the keywords by the lists, else
   * the one the classifier sees in one of `userTurns` (what the user wrote, a turn each; the
   * conversation's lines when not given), or null.
   */
  topicOf(
    conversation: string,
    keywords: readonly string[],
    userTurns: readonly string[] = userLinesOf(conversation),
  ): SensitiveTopic | null {
    const found = this.matcher.find(conversation);
    if (found) return found;
    for (const keyword of keywords) {
      const inKeyword = this.matcher.find(keyword);
      if (inKeyword) return inKeyword;
    }
    return this.classifiedTopic(userTurns);
  }

  /**
   * The classifier's topic for the first stretch of turns, newest first, that it finds
   * sensitive, or null. A turn is read alone, as the classifier was trained, so a crisis is
   * not diluted by the small talk of other turns; but a short one ("And the biggest?") is
   * read with the turns before it until MIN_READ_CHARS, as a few words alone give the model
   * too little to go on.
   */
  classifiedTopic(turns: readonly string[]): SensitiveTopic | null {
    for (const [text, start] of stretchesOf(turns)) {
      const topic = this.classifier.topicOf(text, start, text.length);
      if (topic !== null) return topic as SensitiveTopic;
    }
    return null;
  }
}

/**
 * What the classifier reads of the user's turns, newest first: each turn alone, a short one
 * with the turns before it, within TURN_CHARS and CLASSIFIED_CHARS; as a text and where in
 * it reading starts. (Training reads the development fixtures the same way.)
 */
export function* stretchesOf(turns: readonly string[]): Generator<[string, number]> {
  let budget = CLASSIFIED_CHARS;
  let next = turns.length - 1;
  while (next >= 0 && budget > 0) {
    let stretch = turns[next--];
    while (next >= 0 && stretch.trim().length < MIN_READ_CHARS) {
      stretch = `${turns[next--]}\n${stretch}`;
    }
    if (!/\S/.test(stretch)) continue;
    const chars = Math.min(stretch.length, TURN_CHARS, budget);
    budget -= chars;
    yield [stretch, wordStart(stretch, stretch.length - chars)];
  }
}

/** `at`, or the next word's start when `at` is inside a word: a cut word reads as another. */
function wordStart(text: string, at: number): number {
  if (at <= 0) return 0;
  const space = text.slice(at, at + 40).search(/\s/);
  return space >= 0 ? at + space : at;
}
