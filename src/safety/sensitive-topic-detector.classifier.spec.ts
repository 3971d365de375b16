import {
  CLASSIFIED_CHARS,
  MIN_READ_CHARS,
  SensitiveTopicDetector,
} from './sensitive-topic-detector.service';
import { userLinesOf } from './user-turns';

const detector = new SensitiveTopicDetector();
const CRISIS =
  'my little boy is 2 and he put a coin battery from the remote in his mouth, now it is gone';

describe('SensitiveTopicDetector, the classifier layer', () => {
  it('finds a crisis told in plain words, with no listed phrase', () => {
    expect(detector.topicOf(CRISIS, ['battery'])).not.toBeNull();
  });

  it('reads each user turn alone, so small talk around a crisis does not hide it', () => {
    const turns = ['hi there', 'can you help me with something quick?', CRISIS, 'thanks'];
    expect(detector.topicOf(turns.join('\n'), [], turns)).not.toBeNull();
  });

  it('reads at most CLASSIFIED_CHARS, newest turns first', () => {
    const small = 'which laptop is good for school? '.repeat(40);
    const old = [CRISIS, ...Array.from({ length: 10 }, () => small)];
    expect(old.slice(1).join('').length).toBeGreaterThan(CLASSIFIED_CHARS);
    expect(detector.classifiedTopic(old)).toBeNull();
    expect(detector.classifiedTopic([...old, CRISIS])).not.toBeNull();
  });

  it('leaves ordinary talk that shares the crisis words alone', () => {
    for (const text of [
      'which laptop has the best battery life for a long flight?',
      'I need a weekly pill organizer with big compartments',
      'what knife is best for cutting tomatoes thin?',
    ]) {
      expect(detector.topicOf(text, [])).toBeNull();
    }
  });
});

describe('userLinesOf', () => {
  it("keeps the user's lines of a transcript, without their label", () => {
    const transcript = 'system: be nice\nuser: hi\nassistant: hello!\nUSER : my question';
    expect(userLinesOf(transcript)).toEqual(['hi', 'my question']);
  });

  it('takes a plain text as all the user’s', () => {
    expect(userLinesOf('one line\nanother')).toEqual(['one line', 'another']);
  });
});

describe('short turns', () => {
  it('reads a short turn with the turns before it', () => {
    const classifier = (detector as unknown as { classifier: { topicOf: (text: string) => null } })
      .classifier;
    const read = jest.spyOn(classifier, 'topicOf');
    const long = 'we are planning a weekend in lisbon with two kids, which area is best to stay?';
    detector.classifiedTopic([long, 'hello', 'And the cheapest?']);
    expect('hello\nAnd the cheapest?'.length).toBeLessThan(MIN_READ_CHARS);
    const texts = read.mock.calls.map(([text]) => text);
    expect(texts).toEqual([`${long}\nhello\nAnd the cheapest?`]);
    read.mockRestore();
  });
});
