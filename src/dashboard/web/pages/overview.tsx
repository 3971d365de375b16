import { api, type Balance, type OverviewPeriod, type OverviewPeriodName } from '../api';
import { LoadError, Loading, PageTitle } from '../components/ui';
import { VerifyEmailNotice } from '../components/verify-email-notice';
import {
  DISPLAY_CURRENCY,
  formatChange,
  formatCount,
  formatDay,
  formatMoney,
  formatPercent,
} from '../format';
import { href } from '../router';
import { useLoad, useSession } from '../session';

const PERIOD_NAMES: Record<OverviewPeriodName, { title: string; before: string }> = {
  today: { title: 'Today', before: 'yesterday' },
  yesterday: { title: 'Yesterday', before: 'the day before' },
  this_month: { title: 'This month', before: 'last month to the same day' },
  last_month: { title: 'Last month', before: 'the month before' },
};

/** A publisher's first page: how the money is going, and what is owed to it. */
export function OverviewPage() {
  const { publisher } = useSession();
  const overview = useLoad(() => api.overview(), []);
  const balance = useLoad(() => api.balance(), []);
  return (
    <>
      <PageTitle title="Overview">Overview</PageTitle>
      <p class="lead">
        Earnings of your live keys, in {DISPLAY_CURRENCY}; days in UTC. Your revenue share is{' '}
        <strong id="overview-revenue-share">{formatPercent(publisher.revenue_share)}</strong> of
        each billed click.
      </p>
      <VerifyEmailNotice />
      {overview.loading && !overview.data && <Loading what="your earnings" />}
      {overview.error && <LoadError error={overview.error} onRetry={overview.reload} />}
      {overview.data && (
        <ul class="periods" aria-label="Earnings by period">
          {overview.data.periods.map((period) => (
            <PeriodCard key={period.period} period={period} />
          ))}
        </ul>
      )}
      <section aria-labelledby="balance-heading">
        <h2 id="balance-heading" class="section-title">
          Balance
        </h2>
        {balance.loading && !balance.data && <Loading what="your balance" />}
        {balance.error && <LoadError error={balance.error} onRetry={balance.reload} />}
        {balance.data && <BalanceCard balance={balance.data} />}
        <p>
          <a href={href('/payouts')}>Payout history</a> ·{' '}
          <a href={href('/stats')}>Usage statistics</a>
        </p>
      </section>
    </>
  );
}

function PeriodCard({ period }: { period: OverviewPeriod }) {
  const names = PERIOD_NAMES[period.period];
  const id = `period-${period.period.replace('_', '-')}`;
  const change = period.earnings_change;
  const direction = change === null || change === 0 ? 'flat' : change > 0 ? 'up' : 'down';
  const range =
    period.from === period.to
      ? formatDay(period.from)
      : `${formatDay(period.from)} – ${formatDay(period.to)}`;
  return (
    <li class="period card" aria-labelledby={`${id}-title`} id={id}>
      <h2 class="period__title" id={`${id}-title`}>
        {names.title}
      </h2>
      <p class="period__range muted">{range}</p>
      <p class="figure">
        <span class="figure__value" id={`${id}-earnings`}>
          {formatMoney(period.earnings)}
        </span>
        <span class="figure__label">earned</span>
      </p>
      <p class={`change change--${direction}`} id={`${id}-change`}>
        {change === null ? (
          <>Nothing earned {names.before} to compare with</>
        ) : (
          <>
            <strong>{formatChange(change)}</strong> against {names.before} (
            {formatMoney(period.previous.earnings)})
          </>
        )}
      </p>
      <dl class="period__facts">
        <div>
          <dt>Impressions</dt>
          <dd class="figure__small">{formatCount(period.impressions)}</dd>
        </div>
        <div>
          <dt>Clicks</dt>
          <dd class="figure__small">{formatCount(period.clicks)}</dd>
        </div>
        <div>
          <dt>CTR</dt>
          <dd class="figure__small">{formatPercent(period.ctr)}</dd>
        </div>
        <div>
          <dt>
            <abbr title="Revenue per 1,000 impressions">RPM</abbr>
          </dt>
          <dd class="figure__small">{formatMoney(period.rpm)}</dd>
        </div>
      </dl>
    </li>
  );
}

/** The unpaid balance against the payout threshold: due, or how much is still to go. */
export function BalanceCard({ balance }: { balance: Balance }) {
  const toGo = Math.max(
    0,
    Math.round((balance.payout_threshold - balance.unpaid_balance) * 1e6) / 1e6,
  );
  return (
    <div class="card balance" id="balance">
      <div class="balance__main">
        <p class="figure">
          <span class="figure__label" id="balance-unpaid-label">
            Unpaid balance
          </span>
          <span class="figure__value" id="balance-unpaid" aria-describedby="balance-unpaid-label">
            {formatMoney(balance.unpaid_balance)}
          </span>
        </p>
        <p class={balance.due ? 'badge badge--active' : 'badge badge--pending'} id="balance-due">
          {balance.due ? 'Due for payout' : `${formatMoney(toGo)} to go`}
        </p>
      </div>
      <dl class="facts balance__facts">
        <dt>Payout threshold</dt>
        <dd id="balance-threshold">{formatMoney(balance.payout_threshold)}</dd>
        <dt>Revenue share</dt>
        <dd id="balance-revenue-share">{formatPercent(balance.revenue_share)}</dd>
        <dt>Earned in all</dt>
        <dd id="balance-earned">{formatMoney(balance.earned_total)}</dd>
        <dt>Paid out</dt>
        <dd id="balance-paid">{formatMoney(balance.paid_total)}</dd>
      </dl>
      <p class="muted balance__note">
        {balance.due
          ? 'Your balance has reached the payout threshold: it is paid with the next payout run.'
          : 'A payout is made once the unpaid balance reaches the threshold.'}
      </p>
    </div>
  );
}
