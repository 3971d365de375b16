import type { TopicList } from './sensitive-topics';
import { MAX_PHRASE_WORDS, TopicMatcher } from './topic-matcher';

const EMPTY: TopicList = {
  self_harm: [],
  medical_emergency: [],
  mental_health_crisis: [],
  abuse_violence: [],
  sexual_content: [],
  minors: [],
  tragedy_disaster: [],
  elections_politics: [],
};

const matcher = new TopicMatcher([
  {
    ...EMPTY,
    self_harm: ['kill myself', 'Überdosis', 'mettre fin à mes jours'],
    abuse_violence: ['rapist'],
    sexual_content: ['sex'],
    elections_politics: ['vote for', 'élection'],
    minors: ['grosse soeur'],
  },
]);

describe('TopicMatcher', () => {
  it('finds words and phrases whatever their case and accents', () => {
    expect(matcher.find('I want to KILL MYSELF')).toBe('self_harm');
    expect(matcher.find('ueberdosis? no: Uberdosis')).toBe('self_harm');
    expect(matcher.find('Je veux METTRE FIN A MES JOURS.')).toBe('self_harm');
    expect(matcher.find('ELECTION day')).toBe('elections_politics');
    expect(matcher.find('Élection day')).toBe('elections_politics');
  });

  it('matches whole words only', () => {
    expect(matcher.find('Skill myself up for the new job')).toBeNull();
    expect(matcher.find('a unisex jacket, sexy and Essex-made')).toBeNull();
    expect(matcher.find('my therapist says hi')).toBeNull();
    expect(matcher.find('the rapist was caught')).toBe('abuse_violence');
    expect(matcher.find('electionday')).toBeNull();
  });

  it('matches a phrase only as the same words in a row, across punctuation', () => {
    expect(matcher.find('Who do I vote, for real?')).toBe('elections_politics');
    expect(matcher.find('vote\n\tfor')).toBe('elections_politics');
    expect(matcher.find('vote now for')).toBeNull();
    expect(matcher.find('for vote')).toBeNull();
    expect(matcher.find('kill')).toBeNull();
    expect(matcher.find('myself')).toBeNull();
  });

  it('finds an entry at the very start, at the very end and after decomposed letters', () => {
    expect(matcher.find('sex')).toBe('sexual_content');
    expect(matcher.find(`${'laptop '.repeat(2000)}kill myself`)).toBe('self_harm');
    expect(matcher.find('ﬁne, I will mettre ﬁn a mes jours')).toBe('self_harm');
    expect(matcher.find('e\u0301lection')).toBe('elections_politics');
  });

  it('reads a character that folds to two letters in place, in any word of a phrase', () => {
    expect(matcher.find('meine GROẞE Sœur')).toBe('minors');
    expect(matcher.find('meine große sœur')).toBe('minors');
    expect(matcher.find('meine grosse soeur')).toBe('minors');
    expect(matcher.find('meine große sœurs')).toBeNull();
    expect(matcher.find('meine großes sœur')).toBeNull();
  });

  it('finds nothing in empty or ordinary text', () => {
    expect(matcher.find('')).toBeNull();
    expect(matcher.find('   ,,, ')).toBeNull();
    expect(matcher.find('Which laptop is best for programming on a budget?')).toBeNull();
    expect(matcher.find('中文 한국어 العربية 😀')).toBeNull();
  });

  it('keeps an entry listed in two languages once', () => {
    const twice = new TopicMatcher([
      { ...EMPTY, self_harm: ['suicide'] },
      { ...EMPTY, self_harm: ['Suicide'] },
    ]);
    expect(twice.size).toBe(1);
  });

  it('refuses an entry with no words or more than the longest phrase', () => {
    expect(() => new TopicMatcher([{ ...EMPTY, minors: ['--'] }])).toThrow('must have');
    const sentence = Array.from({ length: MAX_PHRASE_WORDS + 1 }, () => 'word').join(' ');
    expect(() => new TopicMatcher([{ ...EMPTY, minors: [sentence] }])).toThrow('must have');
  });
});
