import { flaggedByPublisher } from './publisher-moderation';

describe('flaggedByPublisher', () => {
  it('takes flagged, or any category set, as flagged', () => {
    expect(flaggedByPublisher({ flagged: true })).toBe(true);
    expect(flaggedByPublisher({ flagged: false, categories: { 'self-harm/intent': true } })).toBe(
      true,
    );
  });

  it('takes no verdict, or one with nothing set, as not flagged', () => {
    expect(flaggedByPublisher(undefined)).toBe(false);
    expect(flaggedByPublisher(null)).toBe(false);
    expect(flaggedByPublisher({ flagged: false })).toBe(false);
    expect(flaggedByPublisher({ flagged: false, categories: { violence: false } })).toBe(false);
  });
});
