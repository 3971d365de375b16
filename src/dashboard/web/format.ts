/**
 * Numbers, money and dates in the browser's locale.
 *
 * The service keeps amounts as plain decimals with no currency (docs/design.md: no currency code);
 * Adline bills advertisers in US dollars, so the dashboard shows money as USD, in the
 * locale's currency format ("$0.28", "0,28 $"). Change DISPLAY_CURRENCY if that changes.
 */
export const DISPLAY_CURRENCY = 'USD';

const count = new Intl.NumberFormat(undefined);
// One money format everywhere (totals, tables, chart axis and tooltips): to the cent, so
// amounts line up and "$0.315" never stands beside "$0.28". The API keeps the exact figure.
const money = new Intl.NumberFormat(undefined, {
  style: 'currency',
  currency: DISPLAY_CURRENCY,
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});
const percent = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 2 });
// Stats days are UTC calendar days; format them in UTC so they never shift by a day.
const day = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });
const shortDay = new Intl.DateTimeFormat(undefined, {
  month: 'short',
  day: 'numeric',
  timeZone: 'UTC',
});
const instant = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export const formatCount = (n: number): string => count.format(n);
export const formatMoney = (amount: number): string => money.format(amount);
export const formatPercent = (fraction: number): string => percent.format(fraction);
/** A `YYYY-MM-DD` day, e.g. "Nov 21, 2026". */
export const formatDay = (isoDay: string): string => day.format(new Date(`${isoDay}T00:00:00Z`));
/** A `YYYY-MM-DD` day for a chart axis, e.g. "Nov 21". */
export const formatShortDay = (isoDay: string): string =>
  shortDay.format(new Date(`${isoDay}T00:00:00Z`));
/** A timestamp in the viewer's own time zone. */
export const formatInstant = (iso: string): string => instant.format(new Date(iso));

/**
 * An earnings change against the period before: "+25%", "−12.5%" (a real minus sign), "±0%";
 * "—" when the period before earned nothing (no change to speak of).
 */
export function formatChange(fraction: number | null, locale?: string): string {
  if (fraction === null) return '—';
  const magnitude = new Intl.NumberFormat(locale, {
    style: 'percent',
    maximumFractionDigits: 1,
  }).format(Math.abs(fraction));
  if (Math.abs(fraction) < 0.0005) return `±${magnitude}`;
  return `${fraction > 0 ? '+' : '−'}${magnitude}`;
}

/** Revenue per 1,000 impressions, in money. */
export const formatRpm = (rpm: number): string => money.format(rpm);
