import { explainMatch } from '@/campaign-index/explain';
import type { IndexedCampaign, MatchRequest } from '@/campaign-index/matching/matching.types';
import { buildCampaignIndex } from '@/campaign-index/matching/campaign-index-builder';
import { CONVERSATION_KEYWORD_FACTOR } from '@/campaign-index/matching/index/conversation-keywords';
import { CONVERSATION_SCAN_CHARS } from '@/campaign-index/matching/words/conversation-reading';
import { campaign, request } from '@test/support/campaign-index';
import { containsKeyword, tokeniseText } from '@test/support/tokenised-text';

/** Each matched keyword and where it came from, explained by an index of the campaign alone. */
function sources(served: IndexedCampaign, matchRequest: MatchRequest) {
  return explainMatch(buildCampaignIndex([served]), served, matchRequest).map(
    ({ keyword, source }) => ({ keyword, source }),
  );
}

describe('explainMatch', () => {
  it('names the sent keywords first, then those found only in the conversation', () => {
    const boots = campaign(['rain', 'hiking boots', 'trail']);
    const matched = sources(
      boots,
      request('trail', { conversation: 'Which Hiking Boots keep out the rain?' }),
    );
    expect(matched).toEqual([
      { keyword: 'trail', source: 'context_keywords' },
      { keyword: 'rain', source: 'conversation' },
      { keyword: 'hiking boots', source: 'conversation' },
    ]);
  });

  it('counts a keyword both sent and in the conversation as sent', () => {
    const matched = sources(campaign(['gpu']), request('gpu', { conversation: 'a gpu please' }));
    expect(matched).toEqual([{ keyword: 'gpu', source: 'context_keywords' }]);
  });

  it('finds a keyword spelled with punctuation the way the conversation writes it', () => {
    const matched = sources(
      campaign(['hosting', 'node.js']),
      request('hosting', { conversation: 'We deploy Node.js services' }),
    );
    expect(matched).toContainEqual({ keyword: 'node.js', source: 'conversation' });
  });

  it('finds keywords in text with accents and full-width letters, folded as the matcher folds it', () => {
    const matched = sources(
      campaign(['boat', 'kayak', 'café']),
      request('boat', { conversation: 'Un ＫＡＹＡＫ près du Café ?' }),
    );
    expect(matched).toEqual([
      { keyword: 'boat', source: 'context_keywords' },
      { keyword: 'kayak', source: 'conversation' },
      { keyword: 'café', source: 'conversation' },
    ]);
  });

  it('finds whole words only, and a phrase only where its words stand together', () => {
    const matched = sources(
      campaign(['laptop', 'cart', 'machine learning']),
      request('laptop', { conversation: 'a cartoon about machine and deep learning' }),
    );
    expect(matched).toEqual([{ keyword: 'laptop', source: 'context_keywords' }]);
  });

  it.each([
    'We deploy Node.js and C++ code on GPUs',
    'machine-learning GPUs, cheap! Or machine... learning?',
    'Ｃａｆé au lait, NODE JS, c#',
    'b c d, then c, b',
    'nothing here at all',
  ])('finds in %j the keywords a plain whole-word search finds', (conversation) => {
    const keywords = [
      'node.js',
      'c++',
      'c#',
      'machine learning',
      'gpus',
      'café',
      'lait',
      'b c',
      'c b',
    ];
    const matched = sources(campaign(keywords), request('unrelated', { conversation }));
    const text = tokeniseText(conversation);
    expect(matched.map((m) => m.keyword)).toEqual(keywords.filter((k) => containsKeyword(text, k)));
    expect(matched.every((m) => m.source === 'conversation')).toBe(true);
  });

  it('searches only the recent part of a long conversation, as the matcher does', () => {
    const old = `kayak ${'x'.repeat(CONVERSATION_SCAN_CHARS)}`;
    expect(sources(campaign(['boat', 'kayak']), request('boat', { conversation: old }))).toEqual([
      { keyword: 'boat', source: 'context_keywords' },
    ]);
    const recent = `${'x'.repeat(CONVERSATION_SCAN_CHARS)} kayak`;
    expect(
      sources(campaign(['boat', 'kayak']), request('boat', { conversation: recent })),
    ).toContainEqual({ keyword: 'kayak', source: 'conversation' });
  });

  it('recognises sent keywords among many', () => {
    const many = Array.from({ length: 40 }, (_, n) => `word${n}`).join(', ');
    expect(sources(campaign(['word33', 'other']), request(many))).toEqual([
      { keyword: 'word33', source: 'context_keywords' },
    ]);
  });

  it("accounts for the matcher's relevance: sent keywords at full weight, conversation ones at half", () => {
    // One campaign: every keyword has the same weight, so relevance is a count.
    const only = campaign(['boots', 'rain', 'hiking', 'tent', 'stove']);
    const matchRequest = request('boots, stove', {
      conversation: 'Is a tent enough in the rain? Hiking next week.',
    });
    const result = buildCampaignIndex([only]).match(matchRequest)!;
    const matched = sources(result.campaign, matchRequest);
    const sent = matched.filter((m) => m.source === 'context_keywords').length;
    const found = matched.filter((m) => m.source === 'conversation').length;
    expect([sent, found]).toEqual([2, 3]);
    expect(result.relevance).toBeCloseTo((sent + CONVERSATION_KEYWORD_FACTOR * found) / 5, 12);
  });

  describe('names the matched words and how each matched', () => {
    const catalog = [
      campaign(['hotel booking', 'hotels'], { id: 'hotel' }),
      campaign(['web hosting'], { id: 'hosting' }),
      campaign(['learn spanish'], {
        id: 'spanish',
        translations: { 'learn spanish': ["apprendre l'espagnol", 'spanisch lernen'] },
      }),
      campaign(['flight tickets'], { id: 'flights' }),
    ];
    const index = buildCampaignIndex(catalog);
    const explain = (id: string, keywords: string, conversation = '') =>
      explainMatch(
        index,
        catalog.find((c) => c.id === id)!,
        request(keywords, { conversation }),
      );

    it('a keyword sent as written: exact, every word exact', () => {
      expect(explain('hotel', 'hotels')).toContainEqual({
        keyword: 'hotels',
        source: 'context_keywords',
        match: 'exact',
        words: [{ word: 'hotels', match: 'exact' }],
        translation: null,
      });
    });

    it('a word met by its stem: "hotel" for "hotels", and the rarer word of "hotel booking"', () => {
      const matched = explain('hotel', 'hotel');
      expect(matched).toContainEqual({
        keyword: 'hotels',
        source: 'context_keywords',
        match: 'stem',
        words: [{ word: 'hotels', match: 'stem' }],
        translation: null,
      });
      expect(matched).toContainEqual({
        keyword: 'hotel booking',
        source: 'context_keywords',
        match: 'partial',
        words: [{ word: 'hotel', match: 'exact' }],
        translation: null,
      });
    });

    it('a word found in the conversation completes a partial match', () => {
      expect(explain('flights', 'flight', 'Where do I find cheap tickets to Rome?')).toEqual([
        {
          keyword: 'flight tickets',
          source: 'context_keywords',
          match: 'partial',
          words: [
            { word: 'flight', match: 'exact' },
            { word: 'tickets', match: 'conversation' },
          ],
          translation: null,
        },
      ]);
    });

    it('a translation, sent as written or word by word, names the translation', () => {
      for (const sent of ["apprendre l'espagnol", 'apprendre espagnol']) {
        const [matched] = explain('spanish', sent, 'Je voudrais apprendre une langue.');
        expect(matched).toMatchObject({
          keyword: 'learn spanish',
          match: 'translation',
          translation: "apprendre l'espagnol",
        });
        expect(matched.words).toContainEqual({ word: 'espagnol', match: 'exact' });
      }
    });
  });
});
