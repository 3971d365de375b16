import {
  explanationColumns,
  explanationOf,
  type ServedMatch,
} from '@/tracking/explanation/stored-explanation';

const served: ServedMatch = {
  relevance: 0.6666666666,
  matched: [
    {
      keyword: 'gpu',
      source: 'context_keywords',
      match: 'exact',
      words: [{ word: 'gpu', match: 'exact' }],
      translation: null,
    },
    {
      keyword: 'machine learning',
      source: 'conversation',
      match: 'exact',
      words: [
        { word: 'machine', match: 'exact' },
        { word: 'learning', match: 'exact' },
      ],
      translation: null,
    },
  ],
  campaignCountries: ['DE', 'AT'],
  campaignDevices: ['desktop'],
};
const row = { bidMicros: 350_000, country: 'DE', device: 'desktop' };

describe('explanationColumns and explanationOf', () => {
  it('stores a match compactly and reads the same explanation back', () => {
    const columns = explanationColumns(served, 1000);
    expect(columns).toEqual({
      relevancePpm: 666_667,
      matched: '{"k":["gpu"],"c":["machine learning"]}',
      campaignTargets: 'DE,AT;desktop',
    });
    expect(explanationOf({ ...row, ...columns })).toEqual({
      matched_keywords: served.matched,
      targeting: {
        country: 'DE',
        device: 'desktop',
        campaign_countries: ['DE', 'AT'],
        campaign_devices: ['desktop'],
      },
      relevance: 0.666667,
      bid: 0.35,
      score: 0.233333,
    });
  });

  it('reads empty targets as "everyone" and a request without country or device as null', () => {
    const columns = explanationColumns(
      { ...served, campaignCountries: [], campaignDevices: [] },
      1000,
    );
    expect(columns.campaignTargets).toBe(';');
    expect(explanationOf({ ...row, country: null, device: null, ...columns })?.targeting).toEqual({
      country: null,
      device: null,
      campaign_countries: [],
      campaign_devices: [],
    });
  });

  it('keeps as many keywords as the column holds, dropping the conversation ones first', () => {
    const asWritten = (keyword: string, source: 'context_keywords' | 'conversation') => ({
      keyword,
      source,
      match: 'exact' as const,
      words: keyword.split(' ').map((word) => ({ word, match: 'exact' as const })),
      translation: null,
    });
    const matched = [
      ...Array.from({ length: 30 }, (_, n) => asWritten(`sent keyword ${n}`, 'context_keywords')),
      ...Array.from({ length: 30 }, (_, n) => asWritten(`found keyword ${n}`, 'conversation')),
    ];
    const columns = explanationColumns({ ...served, matched }, 1000);
    expect(columns.matched!.length).toBeLessThanOrEqual(1000);
    const stored = JSON.parse(columns.matched!) as { k: string[]; c: string[] };
    expect(stored.k).toHaveLength(30);
    expect(stored.c.length).toBeGreaterThan(0);
    expect(stored.c.length).toBeLessThan(30);
    // The next keyword would not have fitted.
    const next = JSON.stringify(`found keyword ${stored.c.length}`).length + 1;
    expect(columns.matched!.length + next).toBeGreaterThan(1000);
  });

  it('stores how each word met the request, and the translation, and reads them back', () => {
    const matched: ServedMatch['matched'] = [
      {
        keyword: 'hotel booking',
        source: 'context_keywords',
        match: 'partial',
        words: [{ word: 'hotel', match: 'stem' }],
        translation: null,
      },
      {
        keyword: 'learn spanish',
        source: 'context_keywords',
        match: 'translation',
        words: [
          { word: 'apprendre', match: 'exact' },
          { word: 'espagnol', match: 'stem' },
        ],
        translation: "apprendre l'espagnol",
      },
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
    ];
    const columns = explanationColumns({ ...served, matched }, 1000);
    expect(JSON.parse(columns.matched!)).toEqual({
      k: [
        ['hotel booking', 'p', 'hotel:s'],
        ['learn spanish', 't', 'apprendre:e espagnol:s', "apprendre l'espagnol"],
        ['flight tickets', 'p', 'flight:e tickets:c'],
      ],
      c: [],
    });
    expect(explanationOf({ ...row, ...columns })?.matched_keywords).toEqual(matched);
  });

  it('has no explanation for an impression served before explanations were recorded', () => {
    expect(
      explanationOf({ ...row, relevancePpm: null, matched: null, campaignTargets: null }),
    ).toBeNull();
  });
});
