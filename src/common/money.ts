/**
 * Money and revenue shares as integers.
 *
 * Amounts are integer micros inside the service (1 unit = 1,000,000 micros) and revenue
 * shares are integer parts per million, so the ledger never adds up binary fractions.
 * Decimal numbers exist only at the API edge; these helpers convert there, exactly.
 */

export const MICROS_PER_UNIT = 1_000_000;

/** Revenue shares are parts per million: 700_000 ppm = 70 %. */
export const PPM = 1_000_000;

/** Both scales have six decimal places. */
const SCALE_DECIMALS = 6;
const SCALE = 10n ** BigInt(SCALE_DECIMALS);

/**
 * A non-negative decimal as an integer mantissa and a count of decimal places:
 * value = digits / 10^decimals. Trailing fractional zeros are already dropped, so
 * `decimals` counts the decimals that carry a value ("0.350" has 2).
 */
interface ExactDecimal {
  digits: string;
  decimals: number;
}

// Plain decimals ("12.5", ".5", "12.") with an optional exponent, which is what
// String(number) yields for very small or very large numbers (1e-7, 1e+21).
const DECIMAL_PATTERN = /^(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/**
 * Reads a number through its shortest decimal form rather than its binary value:
 * 0.35 is stored as 0.34999999999999997779…, but String(0.35) is "0.35", which is what
 * the client sent and what we must bill.
 */
function parseDecimal(value: number | string, what: string): ExactDecimal {
  if (typeof value === 'number' && !Number.isFinite(value)) {
    throw new RangeError(`${what} must be a finite number, got ${value}`);
  }
  const text = typeof value === 'number' ? String(value) : value.trim();
  if (text.startsWith('-')) {
    throw new RangeError(`${what} must not be negative, got ${text}`);
  }
  const match = DECIMAL_PATTERN.exec(text);
  const [, whole = '', fraction = '', exponent = '0'] = match ?? [];
  if (!match || whole + fraction === '') {
    throw new RangeError(`${what} must be a decimal number, got ${JSON.stringify(value)}`);
  }
  const fractionDigits = stripTrailingZeros(fraction);
  const digits = stripLeadingZeros(whole + fractionDigits);
  if (digits === '0') {
    return { digits, decimals: 0 };
  }
  // Trailing zeros of the whole part become a negative decimals count, so "1000" and
  // "1e+3" look alike and the digit-count bounds below stay honest.
  const significant = stripTrailingZeros(digits);
  const zerosDropped = digits.length - significant.length;
  return { digits: significant, decimals: fractionDigits.length - Number(exponent) - zerosDropped };
}

function stripLeadingZeros(digits: string): string {
  return digits.replace(/^0+(?=\d)/, '') || '0';
}

function stripTrailingZeros(digits: string): string {
  return digits.replace(/0+$/, '');
}

/**
 * Turns a decimal into an integer with six implied decimals, refusing anything that would
 * round. The bounds are checked on the digit counts first so that an absurd exponent
 * ("1e999999") never reaches BigInt exponentiation.
 */
function toScaledInteger(value: number | string, what: string): number {
  const { digits, decimals } = parseDecimal(value, what);
  if (decimals > SCALE_DECIMALS) {
    throw new RangeError(`${what} must have at most 6 decimals, got ${JSON.stringify(value)}`);
  }
  const maxDigits = String(Number.MAX_SAFE_INTEGER).length;
  const scaledDigits = digits === '0' ? 1 : digits.length + SCALE_DECIMALS - decimals;
  const scaled =
    scaledDigits > maxDigits ? null : BigInt(digits) * 10n ** BigInt(SCALE_DECIMALS - decimals);
  if (scaled === null || scaled > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new RangeError(`${what} is too large: ${JSON.stringify(value)}`);
  }
  return Number(scaled);
}

/**
 * Converts an amount in currency units (0.35, "12.000001") to integer micros, exactly.
 * Throws a RangeError for negatives, NaN/Infinity, more than six significant decimals
 * ("0.3500000" is fine, "0.0000001" is not) or a result beyond Number.MAX_SAFE_INTEGER.
 */
export function unitsToMicros(value: number | string): number {
  return toScaledInteger(value, 'Amount');
}

/**
 * Converts integer micros to a number of units for the API edge (350000 → 0.35).
 * One IEEE division of two exactly represented integers is correctly rounded, so the
 * result is the double nearest to the exact decimal; up to 15 significant digits
 * (below 10^9 units) that double prints back as exactly that decimal.
 */
export function microsToUnits(micros: number): number {
  if (!Number.isSafeInteger(micros)) {
    throw new RangeError(`Micros must be a safe integer, got ${micros}`);
  }
  return micros / MICROS_PER_UNIT;
}

/** True when the number is finite and has no significant digit beyond the sixth decimal. */
export function hasAtMostSixDecimals(value: number): boolean {
  if (!Number.isFinite(value)) {
    return false;
  }
  return parseDecimal(Math.abs(value), 'Value').decimals <= SCALE_DECIMALS;
}

/** Converts a revenue share given as a fraction (0.7) to parts per million (700000). */
export function shareToPpm(fraction: number): number {
  const ppm = toScaledInteger(fraction, 'Revenue share');
  if (ppm > PPM) {
    throw new RangeError(`Revenue share must be between 0 and 1, got ${fraction}`);
  }
  return ppm;
}

/** Converts parts per million (700000) back to a fraction (0.7) for the API edge. */
export function ppmToShare(ppm: number): number {
  assertPpm(ppm);
  return ppm / PPM;
}

function assertPpm(ppm: number): void {
  if (!Number.isSafeInteger(ppm) || ppm < 0 || ppm > PPM) {
    throw new RangeError(`Revenue share must be an integer ppm in [0, ${PPM}], got ${ppm}`);
  }
}

/**
 * Splits one click's bid between the publisher and the platform. The publisher gets
 * floor(bid × share) — rounding never pays out a micro the campaign did not spend — and
 * the platform keeps the rest, so the two always add up to the bid exactly.
 * The product can exceed 2^53, hence BigInt.
 */
export function splitRevenue(
  bidMicros: number,
  sharePpm: number,
): { publisherMicros: number; platformMicros: number } {
  if (!Number.isSafeInteger(bidMicros) || bidMicros < 0) {
    throw new RangeError(`Bid must be a non-negative integer of micros, got ${bidMicros}`);
  }
  assertPpm(sharePpm);
  const publisherMicros = Number((BigInt(bidMicros) * BigInt(sharePpm)) / SCALE);
  return { publisherMicros, platformMicros: bidMicros - publisherMicros };
}
