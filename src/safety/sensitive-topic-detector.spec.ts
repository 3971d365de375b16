import { FIXTURE_LANGUAGES, sensitiveFixture } from '@test/support/sensitive-fixtures';
import { SensitiveTopicDetector, TOPIC_LISTS } from './sensitive-topic-detector.service';
import { SENSITIVE_TOPICS } from './sensitive-topics';

const detector = new SensitiveTopicDetector();

describe('SensitiveTopicDetector', () => {
  it('has entries for every topic in every language', () => {
    for (const list of TOPIC_LISTS) {
      for (const topic of SENSITIVE_TOPICS) expect(list[topic].length).toBeGreaterThan(0);
    }
  });

  describe.each(FIXTURE_LANGUAGES)('%s fixture', (language) => {
    const fixture = sensitiveFixture(language);

    it('has at least 15 sensitive conversations covering every topic', () => {
      expect(fixture.sensitive.length).toBeGreaterThanOrEqual(15);
      expect(new Set(fixture.sensitive.map((s) => s.topic))).toEqual(new Set(SENSITIVE_TOPICS));
    });

    it.each(fixture.sensitive.map((s) => [s.conversation, s.topic]))(
      'finds a sensitive topic in "%s" (%s)',
      (conversation, topic) => {
        expect(detector.topicOf(conversation, ['laptop'])).toBe(topic);
      },
    );

    it('has at least 15 ordinary conversations', () => {
      expect(fixture.ordinary.length).toBeGreaterThanOrEqual(15);
    });

    it.each(fixture.ordinary.map((o) => [o.conversation, o.keywords]))(
      'finds nothing sensitive in "%s" (%s)',
      (conversation, keywords) => {
        expect(detector.topicOf(conversation, [keywords])).toBeNull();
      },
    );
  });

  it('checks the keywords too, each on its own', () => {
    expect(detector.topicOf('Any advice on this?', ['laptop', 'suicide'])).toBe('self_harm');
    expect(detector.topicOf('Any advice on this?', ['Bundestagswahl'])).toBe('elections_politics');
    // "vote" ending one keyword and "for" starting the next are not the phrase "vote for".
    expect(detector.topicOf('Any advice on this?', ['upvote', 'vote', 'for kids'])).toBeNull();
  });
});
