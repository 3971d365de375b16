import { api } from '../api';
import { PayoutsTable } from '../components/payouts-table';
import { EmptyState, LoadError, Loading, PageTitle } from '../components/ui';
import { DISPLAY_CURRENCY } from '../format';
import { useLoad } from '../session';
import { BalanceCard } from './overview';

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
          <PayoutsTable id="payouts" payouts={payouts.data.payouts} dateLabel="Paid on" />
        )}
      </section>
    </>
  );
}
