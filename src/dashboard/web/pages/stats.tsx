import { useMemo, useState } from 'preact/hooks';
import { api, ApiError, type BillableFigures, type StatsFigures } from '../api';
import { FillTable, formatFillRate } from '../components/fill-table';
import { TextField } from '../components/form';
import { EmptyState, LoadError, Loading, PageTitle } from '../components/ui';
import { UsageChart, type UsageChartKind } from '../components/usage-chart';
import { isIsoDay, lastDays } from '../dates';
import { DISPLAY_CURRENCY, formatCount, formatDay, formatMoney, formatPercent } from '../format';
import { href, navigate, type Route } from '../router';
import { useLoad } from '../session';
import { type DayFigures, perDay, perModel } from '../stats-data';

const PRESETS = [7, 30, 90];
const DEFAULT_DAYS = 30;

/** The range lives in the address (`#/stats?from=…&to=…&model=…`), so it can be shared. */
export function StatsPage({ route }: { route: Route }) {
  const fallback = lastDays(DEFAULT_DAYS);
  const from = route.query.get('from') ?? fallback.from;
  const to = route.query.get('to') ?? fallback.to;
  const modelId = route.query.get('model') ?? '';

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

  const show = (range: { from: string; to: string; model: string }) => {
    const query = new URLSearchParams({ from: range.from, to: range.to });
    if (range.model) query.set('model', range.model);
    navigate(`/stats?${query.toString()}`);
  };

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
              <section aria-labelledby="per-model-heading">
                <h2 id="per-model-heading" class="section-title">
                  Per model
                </h2>
                <table class="table table--numbers table--stack" id="per-model">
                  <caption class="visually-hidden">Figures per model for the range</caption>
                  <FiguresHead first="Model" />
                  <tbody>
                    {byModel.map((m) => (
                      <tr key={m.modelId}>
                        <th scope="row" data-label="Model">
                          <a href={href(`/models/${m.modelId}/keys`)}>{m.name}</a>
                        </th>
                        <FigureCells figures={m} labelled />
                      </tr>
                    ))}
                  </tbody>
                  <tfoot>
                    <tr>
                      <th scope="row" data-label="Model">
                        Total
                      </th>
                      <FigureCells figures={totals} labelled />
                    </tr>
                  </tfoot>
                </table>
              </section>
              <details class="daily">
                <summary>Figures per day</summary>
                <table class="table table--numbers">
                  <caption class="visually-hidden">Figures per day, all shown models</caption>
                  <FiguresHead first="Day" />
                  <tbody>
                    {days
                      .filter((d) => d.impressions > 0 || d.clicks > 0)
                      .map((d) => (
                        <tr key={d.date}>
                          <th scope="row">{formatDay(d.date)}</th>
                          <FigureCells figures={d} />
                        </tr>
                      ))}
                  </tbody>
                </table>
              </details>
            </>
          )}
          {totals.requests > 0 && (
            <FillTable rows={stats.data.rows} totals={totals} modelName={modelName} />
          )}
        </>
      )}
    </>
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

/** A row's four figures; `labelled` names each cell for the stacked (narrow) layout. */
function FigureCells({ figures, labelled }: { figures: BillableFigures; labelled?: boolean }) {
  const label = (name: string) => (labelled ? name : undefined);
  return (
    <>
      <td data-label={label('Impressions')}>{formatCount(figures.impressions)}</td>
      <td data-label={label('Clicks')}>{formatCount(figures.clicks)}</td>
      <td data-label={label('CTR')}>{formatPercent(figures.ctr)}</td>
      <td data-label={label('Earnings')}>{formatMoney(figures.earnings)}</td>
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
        {PRESETS.map((n) => (
          <button
            key={n}
            type="button"
            class="button button--small"
            onClick={() => props.onShow({ ...lastDays(n), model })}
          >
            Last {n} days
          </button>
        ))}
      </div>
    </form>
  );
}
