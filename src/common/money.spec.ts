import {
  hasAtMostSixDecimals,
  MICROS_PER_UNIT,
  microsToUnits,
  PPM,
  ppmToShare,
  shareToPpm,
  splitRevenue,
  unitsToMicros,
} from '@/common/money';

describe('unitsToMicros', () => {
  it.each([
    [0.35, 350_000],
    [0.1, 100_000],
    [0.000498, 498], // 0.000498 * 1e6 is 497.99999999999994 in floating point
    [1.005, 1_005_000], // 1.005 * 1e6 is 1004999.9999999999 in floating point
    [1e-6, 1],
    [0, 0],
    [-0, 0],
    [12, 12_000_000],
    [1e3, 1_000_000_000],
  ])('bills the amount %p as exactly %p micros', (units, micros) => {
    expect(unitsToMicros(units)).toBe(micros);
  });

  it.each([
    ['12.000001', 12_000_001],
    ['0.35', 350_000],
    ['.5', 500_000],
    ['7.', 7_000_000],
    ['0.3500000', 350_000],
    ['007.25', 7_250_000],
    ['1e-6', 1],
    ['1.5E3', 1_500_000_000],
    [' 2.5 ', 2_500_000],
    ['9007199254.740991', Number.MAX_SAFE_INTEGER],
  ])('reads the decimal text %p as exactly %p micros', (units, micros) => {
    expect(unitsToMicros(units)).toBe(micros);
  });

  it.each([
    [0.0000001, /at most 6 decimals/],
    ['0.1234567', /at most 6 decimals/],
    ['1e-7', /at most 6 decimals/],
    ['1e-999999', /at most 6 decimals/],
    [-0.01, /negative/],
    ['-1', /negative/],
    [Number.NaN, /finite/],
    [Number.POSITIVE_INFINITY, /finite/],
    ['9007199254.740992', /too large/],
    [1e21, /too large/],
    ['1e999999', /too large/],
    ['', /decimal number/],
    ['.', /decimal number/],
    ['abc', /decimal number/],
    ['0x10', /decimal number/],
    ['+1', /decimal number/],
    ['1,5', /decimal number/],
  ])('refuses %p rather than round it', (units, message) => {
    expect(() => unitsToMicros(units)).toThrow(RangeError);
    expect(() => unitsToMicros(units)).toThrow(message);
  });
});

describe('microsToUnits', () => {
  it.each([
    [350_000, 0.35],
    [12_000_001, 12.000001],
    [1, 0.000001],
    [0, 0],
    [MICROS_PER_UNIT, 1],
  ])('shows %p micros as %p', (micros, units) => {
    expect(microsToUnits(micros)).toBe(units);
  });

  it('shows every amount below a billion units as the decimal it was entered as', () => {
    const samples = [999_999_999_999_999, 123_456_789_123_456, 100_000_000_000_001, 290_000];
    for (let i = 0; i < 2000; i += 1) {
      samples.push(Math.floor(Math.random() * 1e15));
    }
    for (const micros of samples) {
      const text = String(microsToUnits(micros));
      expect(unitsToMicros(text)).toBe(micros);
    }
  });

  it.each([0.5, Number.NaN, Number.MAX_SAFE_INTEGER + 1])('refuses %p micros', (micros) => {
    expect(() => microsToUnits(micros)).toThrow(RangeError);
  });
});

describe('hasAtMostSixDecimals', () => {
  it.each([0.35, 12.000001, 1e-6, 0, 100, -0.5, 1e21])('accepts %p', (value) => {
    expect(hasAtMostSixDecimals(value)).toBe(true);
  });

  it.each([0.1234567, 1e-7, 0.1 + 0.2, Number.NaN, Number.NEGATIVE_INFINITY])(
    'rejects %p',
    (value) => {
      expect(hasAtMostSixDecimals(value)).toBe(false);
    },
  );
});

describe('revenue shares', () => {
  it.each([
    [0.7, 700_000],
    [0.29, 290_000],
    [0.123456, 123_456],
    [0, 0],
    [1, PPM],
  ])('stores the share %p as %p ppm', (fraction, ppm) => {
    expect(shareToPpm(fraction)).toBe(ppm);
  });

  it.each([1.000001, 1.5, -0.1, 0.1234567, Number.NaN])('refuses the share %p', (fraction) => {
    expect(() => shareToPpm(fraction)).toThrow(RangeError);
  });

  it.each([
    [700_000, 0.7],
    [123_456, 0.123456],
    [PPM, 1],
    [0, 0],
  ])('shows %p ppm as the share %p', (ppm, fraction) => {
    expect(ppmToShare(ppm)).toBe(fraction);
  });

  it.each([PPM + 1, -1, 0.5])('refuses %p ppm', (ppm) => {
    expect(() => ppmToShare(ppm)).toThrow(RangeError);
  });
});

describe('splitRevenue', () => {
  it('gives a 70 % publisher 70 % of a 0.35 bid', () => {
    expect(splitRevenue(350_000, 700_000)).toEqual({
      publisherMicros: 245_000,
      platformMicros: 105_000,
    });
  });

  it('rounds the publisher down to the micro and gives the remainder to the platform', () => {
    // 1 micro at 70 % is 0.7 micros: the publisher cannot be paid a fraction of a micro.
    expect(splitRevenue(1, 700_000)).toEqual({ publisherMicros: 0, platformMicros: 1 });
    // 0.333333 units at 2/3 share ≈ 222221.777…
    expect(splitRevenue(333_333, 666_667)).toEqual({
      publisherMicros: 222_222,
      platformMicros: 111_111,
    });
  });

  it('pays all or nothing at the extreme shares', () => {
    expect(splitRevenue(350_000, PPM)).toEqual({ publisherMicros: 350_000, platformMicros: 0 });
    expect(splitRevenue(350_000, 0)).toEqual({ publisherMicros: 0, platformMicros: 350_000 });
  });

  it('stays exact for bids whose product with the share exceeds 2^53', () => {
    const bid = Number.MAX_SAFE_INTEGER;
    const { publisherMicros, platformMicros } = splitRevenue(bid, 999_999);
    // floor(9007199254740991 × 999999 / 1e6), worked out in decimal by hand.
    expect(publisherMicros).toBe(9_007_190_247_541_736);
    expect(publisherMicros + platformMicros).toBe(bid);
  });

  it('always adds up to the bid', () => {
    for (let i = 0; i < 2000; i += 1) {
      const bid = Math.floor(Math.random() * 1e9); // keeps bid × share exact in a double
      const share = Math.floor(Math.random() * (PPM + 1));
      const { publisherMicros, platformMicros } = splitRevenue(bid, share);
      expect(publisherMicros + platformMicros).toBe(bid);
      expect(publisherMicros).toBeLessThanOrEqual((bid * share) / PPM);
      expect(platformMicros).toBeGreaterThanOrEqual(0);
    }
  });

  it.each([
    [-1, 700_000],
    [0.5, 700_000],
    [350_000, PPM + 1],
    [350_000, -1],
  ])('refuses a bid of %p micros at %p ppm', (bid, share) => {
    expect(() => splitRevenue(bid, share)).toThrow(RangeError);
  });
});
