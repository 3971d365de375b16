import type { FillFigures, NoFillReason, StatsRow } from '../api';
import { formatCount, formatDay, formatPercent } from '../format';

/** The API's reasons in its order, named as a publisher reads them. */
const REASONS: { reason: NoFillReason; label: string }[] = [
  { reason: 'no_match', label: 'No match' },
  { reason: 'no_targeted_match', label: 'Targeted elsewhere' },
  { reason: 'sensitive_topic', label: 'Sensitive topic' },
  { reason: 'frequency_cap', label: 'Frequency cap' },
  { reason: 'relevance_floor', label: 'Relevance floor' },
  { reason: 'blocked', label: 'Blocked' },
  { reason: 'test', label: 'Test key' },
];

/** A dash without requests: no traffic is not a fill rate of 0%. */
export const formatFillRate = (rate: number | null): string =>
  rate === null ? '—' : formatPercent(rate);

interface FillTableProps {
  rows: StatsRow[];
  totals: FillFigures;
  modelName: (modelId: string) => string;
}

/**
 * fetch-ads requests per day and model: fills, fill rate and a column per no-fill reason that
 * occurs in the range (reasons without requests would be columns of zeros).
 */
export function FillTable({ rows, totals, modelName }: FillTableProps) {
  const reasons = REASONS.filter((r) => (totals.no_fills[r.reason] ?? 0) > 0);
  return (
    <section aria-labelledby="fills-heading">
      <h2 id="fills-heading" class="section-title">
        Requests and no-fills
      </h2>
      <p class="muted">
        Each fetch-ads request of your keys gets an ad (a fill) or none, for the reason shown. A
        test key's requests count as "Test key", ad or not: they are never billed.
      </p>
      <table class="table table--numbers table--stack" id="fills">
        <caption class="visually-hidden">
          Requests, fills, fill rate and no-fills by reason, per day and model
        </caption>
        <thead>
          <tr>
            <th scope="col">Model and day</th>
            <th scope="col">Requests</th>
            <th scope="col">Fills</th>
            <th scope="col">Fill rate</th>
            {reasons.map((r) => (
              <th scope="col" key={r.reason}>
                {r.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows
            .filter((row) => row.requests > 0)
            .map((row) => (
              <tr key={`${row.date}|${row.model_id}`}>
                <th scope="row" data-label="Model and day">
                  {modelName(row.model_id)}
                  <span class="table__sub">{formatDay(row.date)}</span>
                </th>
                <FillCells figures={row} reasons={reasons} />
              </tr>
            ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" data-label="Model and day">
              Total
            </th>
            <FillCells figures={totals} reasons={reasons} />
          </tr>
        </tfoot>
      </table>
    </section>
  );
}

function FillCells({ figures, reasons }: { figures: FillFigures; reasons: typeof REASONS }) {
  return (
    <>
      <td data-label="Requests">{formatCount(figures.requests)}</td>
      <td data-label="Fills">{formatCount(figures.fills)}</td>
      <td data-label="Fill rate">{formatFillRate(figures.fill_rate)}</td>
      {reasons.map((r) => (
        <td key={r.reason} data-label={r.label}>
          {formatCount(figures.no_fills[r.reason] ?? 0)}
        </td>
      ))}
    </>
  );
}
