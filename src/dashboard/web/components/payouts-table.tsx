import type { ComponentChildren } from 'preact';
import type { Payout, PayoutMethod } from '../api';
import { formatDay, formatInstant, formatMoney } from '../format';

export const METHODS: Record<PayoutMethod, string> = {
  bank_transfer: 'Bank transfer',
  paypal: 'PayPal',
  wise: 'Wise',
  check: 'Check',
  other: 'Other',
};

/**
 * Payouts, newest first: the publisher's history and the console's alike. `action` adds a
 * control beside a paid payout's status (the console's Void).
 */
export function PayoutsTable(props: {
  id: string;
  payouts: Payout[];
  /** The first column's heading: when the payout was made or recorded. */
  dateLabel: string;
  action?: (payout: Payout) => ComponentChildren;
}) {
  const { dateLabel } = props;
  return (
    <table class="table table--stack" id={props.id}>
      <caption class="visually-hidden">Payouts, newest first</caption>
      <thead>
        <tr>
          <th scope="col">{dateLabel}</th>
          <th scope="col">Period</th>
          <th scope="col">Amount</th>
          <th scope="col">Method</th>
          <th scope="col">Reference</th>
          <th scope="col">Status</th>
        </tr>
      </thead>
      <tbody>
        {props.payouts.map((payout) => {
          const voided = payout.status === 'voided';
          return (
            <tr key={payout.id} class={voided ? 'table__row--muted' : undefined}>
              <th scope="row" data-label={dateLabel}>
                {formatInstant(payout.created_at)}
              </th>
              <td data-label="Period">
                {formatDay(payout.period_start)} – {formatDay(payout.period_end)}
              </td>
              <td data-label="Amount" class="number">
                {voided ? <s>{formatMoney(payout.amount)}</s> : formatMoney(payout.amount)}
              </td>
              <td data-label="Method">{METHODS[payout.method] ?? payout.method}</td>
              <td data-label="Reference" class="wrap-anywhere">
                {payout.reference}
              </td>
              <td data-label="Status">
                {voided ? (
                  <span>
                    <span class="badge badge--revoked">Voided</span>
                    <span class="table__sub">
                      {payout.void_reason ?? 'No reason given'}
                      {payout.voided_at && ` (${formatInstant(payout.voided_at)})`}
                    </span>
                  </span>
                ) : (
                  <span>
                    <span class="badge badge--active">Paid</span>
                    {props.action && <> {props.action(payout)}</>}
                  </span>
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
