import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { PlatformFigures, ReportRow } from '../../admin-api';
import { TextField } from '../../components/form';
import { isIsoDay, lastDays, presetOf, presetRange, RANGE_PRESETS } from '../../dates';
import { formatCount, formatMoney, formatPercent } from '../../format';

export type Range = { from: string; to: string };

/** A report's range: the last 30 UTC days until the operator picks another. */
export function useRange(): [Range, (range: Range) => void] {
  return useState<Range>(() => lastDays(30));
}

/** Quick ranges (today … last month) and a custom From/To, as on the statistics page. */
export function RangePicker(props: { id: string; range: Range; onRange: (r: Range) => void }) {
  const { id, range } = props;
  const [from, setFrom] = useState(range.from);
  const [to, setTo] = useState(range.to);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const current = presetOf(range);
  const pick = (next: Range) => {
    setFrom(next.from);
    setTo(next.to);
    setErrors({});
    props.onRange(next);
  };
  const submit = (event: Event) => {
    event.preventDefault();
    const found: Record<string, string> = {};
    if (!isIsoDay(from)) found.from = 'Enter the first day of the range.';
    if (!isIsoDay(to)) found.to = 'Enter the last day of the range.';
    else if (isIsoDay(from) && to < from) found.to = 'The last day must not be before the first.';
    setErrors(found);
    if (Object.keys(found).length === 0) props.onRange({ from, to });
  };
  return (
    <form class="card range" onSubmit={submit} noValidate aria-label={`${id} date range`}>
      <div class="range__presets" role="group" aria-label="Quick ranges">
        {RANGE_PRESETS.map((preset) => (
          <button
            key={preset.id}
            type="button"
            class="button button--small"
            aria-pressed={current === preset.id}
            onClick={() => pick(presetRange(preset.id))}
          >
            {preset.label}
          </button>
        ))}
        <button
          type="button"
          class="button button--small"
          aria-pressed={current === null}
          onClick={() => document.getElementById(`${id}-from`)?.focus()}
        >
          Custom
        </button>
      </div>
      <div class="range__fields">
        <TextField
          id={`${id}-from`}
          label="From"
          type="date"
          value={from}
          onValue={setFrom}
          error={errors.from}
        />
        <TextField
          id={`${id}-to`}
          label="To"
          type="date"
          value={to}
          onValue={setTo}
          error={errors.to}
        />
        <button type="submit" class="button button--primary range__submit">
          Show
        </button>
      </div>
    </form>
  );
}

interface Column {
  label: ComponentChildren;
  name: string;
  cell: (f: ReportRow & Partial<PlatformFigures>) => string;
}

const has = (totals: object, field: string) => field in totals;
const optionalMoney = (v: number | null | undefined) =>
  v === null || v === undefined ? '—' : formatMoney(v);

/**
 * The columns a report has: the base figures, then earnings, views and conversions when the
 * API sends them (`totals` decides, so every row shows the same columns).
 */
export function reportColumns(totals: ReportRow & Partial<PlatformFigures>): Column[] {
  const columns: Column[] = [
    { name: 'Impressions', label: 'Impressions', cell: (f) => formatCount(f.impressions) },
    { name: 'Clicks', label: 'Clicks', cell: (f) => formatCount(f.clicks) },
    { name: 'CTR', label: 'CTR', cell: (f) => formatPercent(f.ctr) },
    { name: 'Invalid clicks', label: 'Invalid clicks', cell: (f) => formatCount(f.invalid_clicks) },
    {
      name: 'Invalid share',
      label: 'Invalid share',
      cell: (f) => formatPercent(f.invalid_click_rate),
    },
    { name: 'Spend', label: 'Spend', cell: (f) => formatMoney(f.spend) },
  ];
  if (has(totals, 'publisher_earnings')) {
    columns.push(
      {
        name: 'Earnings',
        label: 'Publisher earnings',
        cell: (f) => optionalMoney(f.publisher_earnings),
      },
      {
        name: 'Platform',
        label: 'Platform revenue',
        cell: (f) => optionalMoney(f.platform_revenue),
      },
    );
  }
  if (has(totals, 'viewed_impressions')) {
    columns.push(
      { name: 'Viewed', label: 'Viewed', cell: (f) => formatCount(f.viewed_impressions ?? 0) },
      { name: 'View rate', label: 'View rate', cell: (f) => formatPercent(f.view_rate ?? 0) },
    );
  }
  if (has(totals, 'conversions')) {
    columns.push(
      { name: 'Conversions', label: 'Conversions', cell: (f) => formatCount(f.conversions ?? 0) },
      {
        name: 'Conversion value',
        label: 'Conversion value',
        cell: (f) => optionalMoney(f.conversion_value),
      },
      {
        name: 'Cost per conversion',
        label: 'Cost per conversion',
        cell: (f) => optionalMoney(f.cost_per_conversion),
      },
      {
        name: 'ROAS',
        label: <abbr title="Return on ad spend">ROAS</abbr>,
        cell: (f) => (f.roas === null || f.roas === undefined ? '—' : `${f.roas.toFixed(2)}×`),
      },
    );
  }
  return columns;
}

/** A report as a table that scrolls sideways on a phone; a row per entry and the totals. */
export function ReportTable<R extends ReportRow & Partial<PlatformFigures>>(props: {
  id: string;
  caption: string;
  first: string;
  rows: R[];
  rowKey: (row: R) => string;
  rowHead: (row: R) => ComponentChildren;
  totals: ReportRow & Partial<PlatformFigures>;
}) {
  const columns = reportColumns(props.totals);
  return (
    <div
      class="table-scroll"
      tabIndex={0}
      role="region"
      aria-label={`${props.caption}, scrolls sideways`}
    >
      <table class="table table--numbers" id={props.id}>
        <caption class="visually-hidden">{props.caption}</caption>
        <thead>
          <tr>
            <th scope="col">{props.first}</th>
            {columns.map((c) => (
              <th scope="col" key={c.name}>
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((row) => (
            <tr key={props.rowKey(row)}>
              <th scope="row">{props.rowHead(row)}</th>
              {columns.map((c) => (
                <td key={c.name}>{c.cell(row)}</td>
              ))}
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">Total</th>
            {columns.map((c) => (
              <td key={c.name}>{c.cell(props.totals)}</td>
            ))}
          </tr>
        </tfoot>
      </table>
    </div>
  );
}

/** Invalid (unbilled) clicks by reason, most first; a line of words without any. */
export function ReasonsTable(props: {
  id: string;
  caption: string;
  byReason: Record<string, number>;
}) {
  const reasons = Object.entries(props.byReason)
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1]);
  if (reasons.length === 0) return <p id={props.id}>No invalid clicks in this range.</p>;
  return (
    <table class="table table--numbers" id={props.id}>
      <caption class="visually-hidden">{props.caption}</caption>
      <thead>
        <tr>
          <th scope="col">Reason</th>
          <th scope="col">Clicks</th>
        </tr>
      </thead>
      <tbody>
        {reasons.map(([reason, clicks]) => (
          <tr key={reason}>
            <th scope="row">
              <code>{reason}</code>
            </th>
            <td>{formatCount(clicks)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
