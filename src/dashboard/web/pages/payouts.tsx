import { api, type PayoutMethod } from '../api';
import { EmptyState, LoadError, Loading, PageTitle } from '../components/ui';
import { DISPLAY_CURRENCY, formatDay, formatInstant, formatMoney } from '../format';
import { useLoad } from '../session';
import { BalanceCard } from './overview';

export const METHODS: Record<PayoutMethod, string> = {
  bank_transfer: 'Bank transfer',
  paypal: 'PayPal',
  wise: 'Wise',
  check: 'Check',
  other: 'Other',
};

/** The balance and every payout made to the publisher, newest first. */
export function PayoutsPage() {
  const balance = useLoad(() => api.balance(), []);
  const payouts = useLoad(() => api.payouts(), []);
  return (
    <>
      <PageTitle title="Payouts">Payouts</PageTitle>
      <p class="lead">
        What your live keys earned and what has been paid to you, in {DISPLAY_CURRENCY}.
      </p>
      {balance.loading && !balance.data && <Loading what="your balance" />}
      {balance.error && <LoadError error={balance.error} onRetry={balance.reload} />}
      {balance.data && <BalanceCard balance={balance.data} />}
      <section aria-labelledby="payouts-heading">
        <h2 id="payouts-heading" class="section-title">
          Payout history
        </h2>
        {payouts.loading && !payouts.data && <Loading what="your payouts" />}
        {payouts.error && <LoadError error={payouts.error} onRetry={payouts.reload} />}
        {payouts.data?.payouts.length === 0 && (
          <EmptyState title="No payouts yet">
            <p>Payouts appear here once your unpaid balance reaches the payout threshold.</p>
          </EmptyState>
        )}
        {payouts.data && payouts.data.payouts.length > 0 && (
          <table class="table table--stack" id="payouts">
            <caption class="visually-hidden">Payouts, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Paid on</th>
                <th scope="col">Period</th>
                <th scope="col">Amount</th>
                <th scope="col">Method</th>
                <th scope="col">Reference</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {payouts.data.payouts.map((payout) => {
                const voided = payout.status === 'voided';
                return (
                  <tr key={payout.id} class={voided ? 'table__row--muted' : undefined}>
                    <th scope="row" data-label="Paid on">
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
                        <span class="badge badge--active">Paid</span>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}
