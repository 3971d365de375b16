import {
  controlColumns,
  controlsOf,
  DEFAULT_CONTROLS,
  type ModelControls,
  servingControls,
} from './model-controls';

const SOME: ModelControls = {
  blockedCategories: ['386'],
  blockedAdvertisers: ['acme'],
  blockedKeywords: ['casino'],
  relevanceFloor: 0.123456,
  frequencyCap: { maxAds: 2, perMinutes: 30 },
};

describe('model controls', () => {
  it('read back from their columns as they were written', () => {
    expect(controlsOf(controlColumns(SOME))).toEqual(SOME);
    expect(controlsOf(controlColumns(DEFAULT_CONTROLS))).toEqual(DEFAULT_CONTROLS);
  });

  it('store empty lists and no cap as nulls, the floor in ppm', () => {
    expect(controlColumns(DEFAULT_CONTROLS)).toEqual({
      blockedCategories: null,
      blockedAdvertisers: null,
      blockedKeywords: null,
      relevanceFloorPpm: 0,
      frequencyCapAds: null,
      frequencyCapMinutes: null,
    });
    expect(controlColumns(SOME).relevanceFloorPpm).toBe(123_456);
  });

  it('tell fetch-ads whether any control is set, each one alone enough', () => {
    expect(servingControls(DEFAULT_CONTROLS).any).toBe(false);
    const one: Partial<ModelControls>[] = [
      { blockedCategories: ['386'] },
      { blockedAdvertisers: ['acme'] },
      { blockedKeywords: ['casino'] },
      { relevanceFloor: 0.000001 },
      { frequencyCap: { maxAds: 1, perMinutes: 1 } },
    ];
    for (const set of one) expect(servingControls({ ...DEFAULT_CONTROLS, ...set }).any).toBe(true);
  });

  it('give fetch-ads sets to look values up in', () => {
    const serving = servingControls(SOME);
    expect(serving.blockedCategories.has('386')).toBe(true);
    expect(serving.blockedAdvertisers.has('other')).toBe(false);
    expect(serving.blockedKeywords.has('casino')).toBe(true);
    expect(Object.isFrozen(serving)).toBe(true);
  });
});
