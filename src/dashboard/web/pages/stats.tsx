import type { ComponentChildren } from 'preact';
import { useMemo, useState } from 'preact/hooks';
import {
  api,
  ApiError,
  type BillableFigures,
  type GroupedStatsRow,
  type StatsFigures,
  type StatsGroupBy,
  statsCsvUrl,
} from '../api';
import { FillTable, formatFillRate } from '../components/fill-table';
import { TextField } from '../components/form';
import { EmptyState, LoadError, Loading, PageTitle } from '../components/ui';
import { UsageChart, type UsageChartKind } from '../components/usage-chart';
import { isIsoDay, lastDays, presetOf, presetRange, RANGE_PRESETS } from '../dates';
import {
  DISPLAY_CURRENCY,
  formatCount,
  formatDay,
  formatMoney,
  formatPercent,
  formatRpm,
} from '../format';
import { href, navigate, type Route } from '../router';
import { useLoad } from '../session';
import {
  type DayFigures,
  perDay,
  perModel,
  reasonsWithCounts,
  rpmOf,
  unbilledPerDayAndModel,
} from '../stats-data';

const DEFAULT_DAYS = 30;

const BREAKDOWNS: { id: StatsGroupBy; label: string; first: string }[] = [
  { id: 'model', label: 'Per model', first: 'Model' },
  { id: 'day', label: 'Per day', first: 'Day' },
  { id: 'key', label: 'Per API key', first: 'API key' },
  { id: 'campaign', label: 'Per campaign', first: 'Campaign' },
];

const isBreakdown = (value: string | null): value is StatsGroupBy =>
  BREAKDOWNS.some((b) => b.id === value);

/** The range lives in the address (`#/stats?from=…&to=…&model=…`), so it can be shared. */
export function StatsPage({ route }: { route: Route }) {
  const fallback = lastDays(DEFAULT_DAYS);
  const from = route.query.get('from') ?? fallback.from;
  const to = route.query.get('to') ?? fallback.to;
  const modelId = route.query.get('model') ?? '';
  const groupParam = route.query.get('group');
  const group: StatsGroupBy = isBreakdown(groupParam) ? groupParam : 'model';

  const models = useLoad(() => api.models(), []);
  const stats = useLoad(
    () => api.stats({ from, to, modelId: modelId || undefined }),
    [from, to, modelId],
  );
  const days = useMemo(
    () => (stats.data ? perDay(stats.data.rows, stats.data.from, stats.data.to) : []),
    [stats.data],
  );
  const byModel = useMemo(() => {
    if (!stats.data || !models.data) return [];
    const shown = modelId ? models.data.filter((m) => m.id === modelId) : models.data;
    return perModel(stats.data.rows, shown);
  }, [stats.data, models.data, modelId]);
  const modelName = (id: string) =>
    models.data?.find((m) => m.id === id)?.name ?? `Model ${id.slice(0, 8)}`;

  const show = (range: { from: string; to: string; model: string; group?: StatsGroupBy }) => {
    const query = new URLSearchParams({ from: range.from, to: range.to });
    if (range.model) query.set('model', range.model);
    const nextGroup = range.group ?? group;
    if (nextGroup !== 'model') query.set('group', nextGroup);
    navigate(`/stats?${query.toString()}`);
  };
  const csvUrl = statsCsvUrl({ from, to, modelId: modelId || undefined, groupBy: group });

  const totals = stats.data?.totals;
  const range = stats.data ? `${formatDay(stats.data.from)} to ${formatDay(stats.data.to)}` : '';
  return (
    <>
      <PageTitle title="Usage statistics">Usage statistics</PageTitle>
      <RangeForm
        key={`${from}|${to}|${modelId}`}
        from={from}
        to={to}
        modelId={modelId}
        models={models.data ?? []}
        serverError={stats.error}
        onShow={show}
      />
      {stats.loading && <Loading what="statistics" />}
      {stats.error && stats.error.code !== 'validation_failed' && (
        <LoadError error={stats.error} onRetry={stats.reload} />
      )}
      {stats.data && totals && !stats.loading && (
        <>
          <p class="range-summary">
            {formatDay(stats.data.from)} – {formatDay(stats.data.to)}{' '}
            <span class="muted">(days in UTC; amounts in {DISPLAY_CURRENCY})</span>
          </p>
          <ul class="kpis" aria-label="Totals for the range">
            <Kpi
              id="total-impressions"
              label="Impressions"
              value={formatCount(totals.impressions)}
            />
            <Kpi id="total-clicks" label="Clicks" value={formatCount(totals.clicks)} />
            <Kpi id="total-ctr" label="CTR" value={formatPercent(totals.ctr)} />
            <Kpi id="total-earnings" label="Earnings" value={formatMoney(totals.earnings)} />
            <Kpi id="total-rpm" label="RPM" value={formatRpm(rpmOf(totals))} />
            <Kpi id="total-fill-rate" label="Fill rate" value={formatFillRate(totals.fill_rate)} />
          </ul>
          <TestTraffic totals={totals} />
          {totals.impressions === 0 && totals.requests === 0 ? (
            <EmptyState title="No activity in this range">
              <p>
                Impressions appear here within seconds of your backend's first fetch-ads call that
                serves an ad. See a model's <a href={href('/models')}>Integration</a> tab to get
                started.
              </p>
            </EmptyState>
          ) : (
            <>
              <div class="charts">
                <ChartCard
                  id="chart-impressions"
                  title="Impressions per day"
                  kind="impressions"
                  days={days}
                  range={range}
                />
                <ChartCard
                  id="chart-clicks"
                  title="Clicks and earnings per day"
                  kind="clicks-earnings"
                  days={days}
                  range={range}
                />
              </div>
              <Breakdown
                group={group}
                onGroup={(next) => show({ from, to, model: modelId, group: next })}
                csvUrl={csvUrl}
              >
                {group === 'model' && (
                  <FiguresTable
                    id="per-model"
                    first="Model"
                    caption="Figures per model"
                    totals={totals}
                  >
                    {byModel.map((m) => (
                      <tr key={m.modelId}>
                        <th scope="row" data-label="Model">
                          <a href={href(`/models/${m.modelId}/keys`)}>{m.name}</a>
                        </th>
                        <FigureCells figures={m} labelled />
                      </tr>
                    ))}
                  </FiguresTable>
                )}
                {group === 'day' && (
                  <FiguresTable id="per-day" first="Day" caption="Figures per day" totals={totals}>
                    {days
                      .filter((d) => d.impressions > 0 || d.clicks > 0)
                      .reverse()
                      .map((d) => (
                        <tr key={d.date}>
                          <th scope="row" data-label="Day">
                            {formatDay(d.date)}
                          </th>
                          <FigureCells figures={d} labelled />
                        </tr>
                      ))}
                  </FiguresTable>
                )}
                {(group === 'key' || group === 'campaign') && (
                  <GroupedTable
                    group={group}
                    query={{ from, to, modelId: modelId || undefined }}
                    modelName={modelName}
                    totals={totals}
                  />
                )}
              </Breakdown>
            </>
          )}
          {totals.requests > 0 && (
            <FillTable rows={stats.data.rows} totals={totals} modelName={modelName} />
          )}
          <UnbilledClicksSection from={from} to={to} modelId={modelId} modelName={modelName} />
        </>
      )}
    </>
  );
}

interface BreakdownProps {
  group: StatsGroupBy;
  onGroup: (group: StatsGroupBy) => void;
  csvUrl: string;
  children: ComponentChildren;
}

/** The table of the range, broken down as chosen, with the same table as a CSV file. */
function Breakdown({ group, onGroup, csvUrl, children }: BreakdownProps) {
  return (
    <section aria-labelledby="breakdown-heading">
      <div class="section-head">
        <h2 id="breakdown-heading" class="section-title">
          {BREAKDOWNS.find((b) => b.id === group)?.label ?? 'Breakdown'}
        </h2>
        <div class="section-head__tools">
          <div class="field field--inline">
            <label for="breakdown">Breakdown</label>
            <select
              id="breakdown"
              value={group}
              onChange={(e) => onGroup(e.currentTarget.value as StatsGroupBy)}
            >
              {BREAKDOWNS.map((b) => (
                <option key={b.id} value={b.id}>
                  {b.label}
                </option>
              ))}
            </select>
          </div>
          <a class="button button--small" href={csvUrl} download id="download-csv">
            Download CSV
          </a>
        </div>
      </div>
      {children}
    </section>
  );
}

function FiguresTable(props: {
  id: string;
  first: string;
  caption: string;
  totals: StatsFigures;
  children: ComponentChildren;
}) {
  return (
    <table class="table table--numbers table--stack" id={props.id}>
      <caption class="visually-hidden">{props.caption} for the range</caption>
      <FiguresHead first={props.first} />
      <tbody>{props.children}</tbody>
      <tfoot>
        <tr>
          <th scope="row" data-label={props.first}>
            Total
          </th>
          <FigureCells figures={props.totals} labelled />
        </tr>
      </tfoot>
    </table>
  );
}

/** Per key or per campaign: rows the API groups itself (`group_by`). */
function GroupedTable(props: {
  group: 'key' | 'campaign';
  query: { from: string; to: string; modelId?: string };
  modelName: (id: string) => string;
  totals: StatsFigures;
}) {
  const { group, query } = props;
  const rows = useLoad(
    () => api.groupedStats({ ...query, groupBy: group }),
    [group, query.from, query.to, query.modelId],
  );
  const first = group === 'key' ? 'API key' : 'Campaign';
  if (rows.loading && !rows.data) return <Loading what="the breakdown" />;
  if (rows.error) return <LoadError error={rows.error} onRetry={rows.reload} />;
  if (!rows.data) return null;
  return (
    <FiguresTable
      id={`per-${group}`}
      first={first}
      caption={`Figures per ${first}`}
      totals={props.totals}
    >
      {rows.data.rows.map((row, index) => (
        <tr key={`${row.key_id ?? row.campaign_id ?? ''}|${row.model_id ?? ''}|${index}`}>
          <th scope="row" data-label={first}>
            {rowName(group, row)}
            {row.model_id && group === 'key' && (
              <span class="table__sub">{props.modelName(row.model_id)}</span>
            )}
          </th>
          <FigureCells figures={row} labelled />
        </tr>
      ))}
    </FiguresTable>
  );
}

function rowName(group: 'key' | 'campaign', row: GroupedStatsRow): string {
  if (group === 'key') {
    const prefix = row.key_prefix ? `${row.key_prefix}…` : (row.key_id?.slice(0, 8) ?? '—');
    return row.key_label ? `${prefix} (${row.key_label})` : prefix;
  }
  return row.campaign_name ?? (row.campaign_id ? `Campaign ${row.campaign_id.slice(0, 8)}` : '—');
}

/** Clicks recorded but not billed, and why, in the publisher's words. */
function UnbilledClicksSection(props: {
  from: string;
  to: string;
  modelId: string;
  modelName: (id: string) => string;
}) {
  const unbilled = useLoad(
    () =>
      api.unbilledClicks({ from: props.from, to: props.to, modelId: props.modelId || undefined }),
    [props.from, props.to, props.modelId],
  );
  const data = unbilled.data;
  const lines = useMemo(() => (data ? unbilledPerDayAndModel(data.rows) : []), [data]);
  const reasons = useMemo(() => (data ? reasonsWithCounts(data.reasons, data.totals) : []), [data]);
  const occurring = reasons.filter((r) => r.clicks > 0);
  const total = occurring.reduce((sum, r) => sum + r.clicks, 0);
  return (
    <section aria-labelledby="unbilled-heading">
      <h2 id="unbilled-heading" class="section-title">
        Unbilled clicks
      </h2>
      <p class="muted">
        Clicks on your ads that were recorded but not billed, so they earn nothing, and why.
      </p>
      {unbilled.loading && !data && <Loading what="unbilled clicks" />}
      {unbilled.error && <LoadError error={unbilled.error} onRetry={unbilled.reload} />}
      {data && (
        <>
          <p id="unbilled-total">
            {total === 0
              ? 'Every click in this range was billed.'
              : `${formatCount(total)} click${total === 1 ? ' was' : 's were'} not billed in this range.`}
          </p>
          {lines.length > 0 && (
            <table class="table table--numbers table--stack" id="unbilled">
              <caption class="visually-hidden">
                Unbilled clicks per day and model, by reason
              </caption>
              <thead>
                <tr>
                  <th scope="col">Day and model</th>
                  {occurring.map((r) => (
                    <th scope="col" key={r.reason}>
                      {r.title}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {lines.map((line) => (
                  <tr key={`${line.date}|${line.modelId}`}>
                    <th scope="row" data-label="Day and model">
                      {formatDay(line.date)}
                      <span class="table__sub">{props.modelName(line.modelId)}</span>
                    </th>
                    {occurring.map((r) => (
                      <td key={r.reason} data-label={r.title}>
                        {formatCount(line.byReason[r.reason] ?? 0)}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <table class="table table--stack reasons" id="unbilled-reasons">
            <caption class="reasons__caption">Why a click is not billed</caption>
            <thead>
              <tr>
                <th scope="col">Reason</th>
                <th scope="col">Clicks</th>
                <th scope="col">What it means</th>
                <th scope="col">What to do</th>
              </tr>
            </thead>
            <tbody>
              {reasons.map((r) => (
                <tr
                  key={r.reason}
                  id={`reason-${r.reason}`}
                  class={r.clicks === 0 ? 'reasons__quiet' : undefined}
                >
                  <th scope="row" data-label="Reason">
                    {r.title} <code class="reasons__code">{r.reason}</code>
                  </th>
                  <td data-label="Clicks" class="number">
                    {formatCount(r.clicks)}
                  </td>
                  <td data-label="What it means">
                    <WithCode text={r.meaning} />
                  </td>
                  <td data-label="What to do">
                    <WithCode text={r.what_to_do} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}

interface ChartCardProps {
  /** Starts the heading's id, e.g. `chart-clicks-heading`. */
  id: string;
  title: string;
  kind: UsageChartKind;
  days: DayFigures[];
  /** The range in words, for the chart's text alternative. */
  range: string;
}

function ChartCard({ id, title, kind, days, range }: ChartCardProps) {
  return (
    <section aria-labelledby={`${id}-heading`} class="card">
      <h2 id={`${id}-heading`} class="section-title">
        {title}
      </h2>
      <UsageChart
        kind={kind}
        days={days}
        label={`${title}, ${range}; the figures are in the tables below.`}
      />
    </section>
  );
}

function FiguresHead({ first }: { first: string }) {
  return (
    <thead>
      <tr>
        <th scope="col">{first}</th>
        <th scope="col">Impressions</th>
        <th scope="col">Clicks</th>
        <th scope="col">CTR</th>
        <th scope="col">Earnings</th>
        <th scope="col">
          <abbr title="Revenue per 1,000 impressions">RPM</abbr>
        </th>
      </tr>
    </thead>
  );
}

/** Test keys' traffic, apart from every billable figure on the page; nothing without any. */
function TestTraffic({ totals }: { totals: StatsFigures }) {
  if (totals.test_impressions === 0 && totals.test_clicks === 0) return null;
  const count = (n: number, what: string) => `${formatCount(n)} ${what}${n === 1 ? '' : 's'}`;
  return (
    <p class="alert alert--info" id="test-traffic">
      Test keys in this range: {count(totals.test_impressions, 'impression')} and{' '}
      {count(totals.test_clicks, 'click')}. Test traffic is never billed and is not counted in the
      impressions, clicks and earnings on this page; its requests show under "Test key" below.
    </p>
  );
}

/** A row's five figures; `labelled` names each cell for the stacked (narrow) layout. */
function FigureCells({
  figures,
  labelled,
}: {
  figures: BillableFigures & { rpm?: number };
  labelled?: boolean;
}) {
  const label = (name: string) => (labelled ? name : undefined);
  return (
    <>
      <td data-label={label('Impressions')}>{formatCount(figures.impressions)}</td>
      <td data-label={label('Clicks')}>{formatCount(figures.clicks)}</td>
      <td data-label={label('CTR')}>{formatPercent(figures.ctr)}</td>
      <td data-label={label('Earnings')}>{formatMoney(figures.earnings)}</td>
      <td data-label={label('RPM')}>{formatRpm(figures.rpm ?? rpmOf(figures))}</td>
    </>
  );
}

function Kpi({ id, label, value }: { id: string; label: string; value: string }) {
  return (
    <li class="kpi" aria-labelledby={`${id}-label`}>
      <span class="kpi__label" id={`${id}-label`}>
        {label}
      </span>
      <span class="kpi__value" id={id}>
        {value}
      </span>
    </li>
  );
}

interface RangeFormProps {
  from: string;
  to: string;
  modelId: string;
  models: { id: string; name: string }[];
  serverError: ApiError | null;
  onShow: (range: { from: string; to: string; model: string }) => void;
}

function RangeForm(props: RangeFormProps) {
  const [from, setFrom] = useState(props.from);
  const [to, setTo] = useState(props.to);
  const [model, setModel] = useState(props.modelId);
  const [local, setLocal] = useState<Record<string, string>>({});
  const errorFor = (field: 'from' | 'to') => local[field] ?? props.serverError?.forField(field);
  const current = presetOf({ from: props.from, to: props.to });
  const submit = (event: Event) => {
    event.preventDefault();
    const errors: Record<string, string> = {};
    if (!isIsoDay(from)) errors.from = 'Enter the first day of the range.';
    if (!isIsoDay(to)) errors.to = 'Enter the last day of the range.';
    else if (isIsoDay(from) && to < from) errors.to = 'The last day must not be before the first.';
    setLocal(errors);
    if (Object.keys(errors).length === 0) props.onShow({ from, to, model });
  };
  return (
    <form class="card range" onSubmit={submit} noValidate aria-label="Date range">
      <div class="range__fields">
        <TextField
          id="range-from"
          label="From"
          type="date"
          value={from}
          onValue={setFrom}
          error={errorFor('from')}
        />
        <TextField
          id="range-to"
          label="To"
          type="date"
          value={to}
          onValue={setTo}
          error={errorFor('to')}
        />
        <div class="field">
          <label for="range-model">Model</label>
          <select id="range-model" value={model} onChange={(e) => setModel(e.currentTarget.value)}>
            <option value="">All models</option>
            {props.models.map((m) => (
              <option key={m.id} value={m.id}>
                {m.name}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" class="button button--primary range__submit">
          Show
        </button>
      </div>
      <div class="range__presets" role="group" aria-label="Quick ranges">
        {RANGE_PRESETS.map((preset) => (
          <button
            key={preset.id}
            type="button"
            class="button button--small"
            aria-pressed={current === preset.id}
            onClick={() => props.onShow({ ...presetRange(preset.id), model })}
          >
            {preset.label}
          </button>
        ))}
        <button
          type="button"
          class="button button--small"
          aria-pressed={current === null}
          onClick={() => document.getElementById('range-from')?.focus()}
        >
          Custom
        </button>
      </div>
    </form>
  );
}

/** The API's texts mark names in backticks (`campaign_link`): shown as code. */
function WithCode({ text }: { text: string }) {
  return (
    <>
      {text
        .split('`')
        .map((part, index) => (index % 2 === 1 ? <code key={index}>{part}</code> : part))}
    </>
  );
}
