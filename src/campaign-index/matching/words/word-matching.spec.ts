import { buildCampaignIndex } from '@/campaign-index/matching/campaign-index-builder';
import { CompoundWords } from '@/campaign-index/matching/words/compound-parts';
import { NO_WORDS, readConversation } from '@/campaign-index/matching/words/conversation-reading';
import { languageOfTag, stemOf } from '@/campaign-index/matching/words/language';
import { campaign, request, winnerOf } from '@test/support/campaign-index';

/** Campaigns as an operator writes them, one idea each. */
const catalog = [
  campaign(['hotel booking', 'boutique hotel'], { id: 'hotels' }),
  campaign(['web hosting'], { id: 'hosting' }),
  campaign(['password manager'], { id: 'passwords' }),
  campaign(['learn french'], { id: 'french' }),
  campaign(['newsletter software'], { id: 'newsletter' }),
  campaign(['online bank', 'bank account'], { id: 'bank' }),
  campaign(['katzenfutter'], { id: 'cat-food' }),
  campaign(['learn spanish'], {
    id: 'spanish',
    translations: { 'learn spanish': ["apprendre l'espagnol", 'spanisch lernen'] },
  }),
  campaign(['project management software', 'online courses'], { id: 'generic-words' }),
];
const served = (keywords: string, conversation = '') =>
  winnerOf(catalog, request(keywords, { conversation }));

describe('matching word by word', () => {
  it.each([
    ['hotel', 'hotels'],
    ['hotels', 'hotels'],
    ['hosting', 'hosting'],
    ['passwords', 'passwords'],
    ['french', 'french'],
    ['newsletter', 'newsletter'],
    ['katzen', 'cat-food'],
    ['hôtels', 'hotels'],
  ])(
    'meets a campaign keyword by its rarer words, stems and compound parts: %s → %s',
    (sent, id) => {
      expect(served(sent)).toBe(id);
    },
  );

  it.each(['software', 'online', 'best', 'free online software'])(
    'never lets a generic word carry a match alone: %s',
    (sent) => {
      expect(served(sent)).toBeUndefined();
    },
  );

  it('keeps derivations apart: "banking" is not "bank", though Snowball gives both one stem', () => {
    expect(stemOf('banking', 'en')).toBe(stemOf('bank', 'en'));
    expect(served('banking')).toBeUndefined();
    expect(served('banks')).toBe('bank');
  });

  it('lets a part meet a compound, never a compound its part', () => {
    const bank = [campaign(['bank'], { id: 'bank' })];
    expect(winnerOf(bank, request('fensterbank'))).toBeUndefined();
    const compounds = new CompoundWords(['katzenfutter', 'katzen', 'auslandskrankenversicherung']);
    expect(compounds.holding('katzen')).toEqual([0]);
    expect(compounds.holding('krankenversicherung')).toEqual([2]);
    expect(compounds.holding('futter')).toEqual([0]);
    // Too short a part, or one that leaves too little of the word.
    expect(compounds.holding('katz')).toEqual([]);
    expect(compounds.holding('katzenfutt')).toEqual([]);
  });

  it('reaches a keyword through a translation, sent as written or word by word', () => {
    expect(served("apprendre l'espagnol")).toBe('spanish');
    expect(served('apprendre espagnol', 'Je veux apprendre une langue.')).toBe('spanish');
    expect(served('spanisch lernen')).toBe('spanish');
  });

  it('ranks an exact keyword above the same keyword met by stem', () => {
    const index = buildCampaignIndex(catalog);
    const exact = index.match(request('boutique hotel'))!;
    const stemmed = index.match(request('boutique hotels'))!;
    expect(exact.campaign.id).toBe('hotels');
    expect(stemmed.campaign.id).toBe('hotels');
    expect(exact.relevance).toBeGreaterThan(stemmed.relevance);
  });

  it('completes a partly met keyword with a word of the conversation', () => {
    const index = buildCampaignIndex(catalog);
    const alone = index.match(request('password'))!;
    const helped = index.match(
      request('password', { conversation: 'Which password manager should I buy?' }),
    )!;
    expect(helped.relevance).toBeGreaterThan(alone.relevance);
  });
});

describe('the language words are read in', () => {
  // French makes "rideaux" of "rideau"; no other language's stemmer joins them.
  const curtains = [campaign(['rideau occultant', 'rideau'], { id: 'curtains' })];

  it('stems in the language of locale, and only in it', () => {
    expect(winnerOf(curtains, request('rideaux', { locale: 'fr-FR' }))).toBe('curtains');
    expect(winnerOf(curtains, request('rideaux', { locale: 'en' }))).toBeUndefined();
  });

  it("stems in the conversation's language when there is no locale", () => {
    const french = 'Je cherche des rideaux pour la chambre de mon fils, tu as une idée ?';
    const english = 'I am looking for rideaux for the bedroom of my son, do you have an idea?';
    expect(winnerOf(curtains, request('rideaux', { conversation: french }))).toBe('curtains');
    expect(winnerOf(curtains, request('rideaux', { conversation: english }))).toBeUndefined();
  });

  it('tries all four languages when neither tells', () => {
    expect(winnerOf(curtains, request('rideaux'))).toBe('curtains');
  });
});

describe('reading a conversation', () => {
  it.each([
    ['en', 'I would like to know which of the hotels is the best one for us and the kids.'],
    ['de', 'Ich möchte wissen, welches der Hotels für uns und die Kinder am besten ist.'],
    ['fr', 'Je voudrais savoir lequel de ces hôtels est le meilleur pour nous et les enfants.'],
    ['es', 'Quiero saber cuál de los hoteles es el mejor para nosotros y los niños.'],
  ])('tells %s from its stop words', (language, text) => {
    expect(readConversation(text, NO_WORDS).language).toBe(language);
  });

  it('tells no language from too few words', () => {
    expect(readConversation('hotels?', NO_WORDS).language).toBeNull();
  });

  it('shows intent when the last turn asks to get something, none for curiosity, null when empty', () => {
    expect(readConversation('Which VPN should I buy?', NO_WORDS).intent).toBe(true);
    expect(readConversation('Wo kann ich Katzenfutter kaufen?', NO_WORDS).intent).toBe(true);
    expect(readConversation('Why is it called the Left Bank?', NO_WORDS).intent).toBe(false);
    expect(readConversation('', NO_WORDS).intent).toBeNull();
  });

  it('reads the language of a BCP 47 tag when the matcher knows it', () => {
    expect(languageOfTag('fr-CA')).toBe('fr');
    expect(languageOfTag('DE')).toBe('de');
    expect(languageOfTag('it')).toBeNull();
    expect(languageOfTag(undefined)).toBeNull();
  });
});
