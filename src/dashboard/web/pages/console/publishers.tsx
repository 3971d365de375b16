import { useMemo, useState } from 'preact/hooks';
import {
  adminApi,
  allPublishers,
  type PublisherBalances,
  type PublisherStatus,
} from '../../admin-api';
import { EmptyState, LoadError, Loading, PageTitle } from '../../components/ui';
import { lastDays } from '../../dates';
import { formatCount, formatMoney, formatPercent } from '../../format';
import { href } from '../../router';
import { useLoad } from '../../session';
import { StatusFilter } from './advertisers';

export function PublisherStatusBadge({ status }: { status: PublisherStatus }) {
  return (
    <span class={`badge badge--${status === 'active' ? 'active' : 'deactivated'}`}>
      {status === 'active' ? 'Active' : 'Suspended'}
    </span>
  );
}

/** The publisher's unpaid balance, marked "due" at or above the payout threshold. */
export function UnpaidBalance({
  balances,
  publisherId,
}: {
  balances: PublisherBalances;
  publisherId: string;
}) {
  const row = balances.publishers.find((p) => p.publisher_id === publisherId);
  if (!row) return <span class="muted">—</span>;
  return row.due ? (
    <span>{formatMoney(row.unpaid_balance)} (due)</span>
  ) : (
    <span>{formatMoney(row.unpaid_balance)}</span>
  );
}

/** Publishers: status, revenue share, the last 30 days' traffic and what is due to them. */
export function PublishersPage() {
  const [status, setStatus] = useState('');
  const [search, setSearch] = useState('');
  const publishers = useLoad(() => allPublishers(), []);
  const report = useLoad(() => adminApi.publisherReport(lastDays(30)), []);
  const balances = useLoad(() => adminApi.balances(), []);
  const traffic = useMemo(
    () => new Map((report.data?.rows ?? []).map((r) => [r.publisher_id, r])),
    [report.data],
  );
  const shown = useMemo(() => {
    const needle = search.trim().toLowerCase();
    return (publishers.data ?? []).filter(
      (p) =>
        p.role === 'publisher' &&
        (status === '' || p.status === status) &&
        `${p.name} ${p.email}`.toLowerCase().includes(needle),
    );
  }, [publishers.data, search, status]);
  return (
    <>
      <PageTitle title="Publishers">Publishers</PageTitle>
      <p class="lead">
        Traffic is the last 30 UTC days. An unpaid balance at or above the payout threshold
        {balances.data ? ` of ${formatMoney(balances.data.payout_threshold)}` : ''} is due.
      </p>
      <div class="console-filters">
        <div class="field field--inline">
          <label for="publisher-search">Search</label>
          <input
            id="publisher-search"
            type="search"
            value={search}
            onInput={(e) => setSearch(e.currentTarget.value)}
          />
        </div>
        <StatusFilter
          id="publisher-status"
          value={status}
          onValue={setStatus}
          statuses={['active', 'suspended']}
        />
      </div>
      {publishers.loading && !publishers.data && <Loading what="publishers" />}
      {publishers.error && <LoadError error={publishers.error} onRetry={publishers.reload} />}
      {report.error && <LoadError error={report.error} onRetry={report.reload} />}
      {balances.error && <LoadError error={balances.error} onRetry={balances.reload} />}
      {publishers.data && shown.length === 0 && <EmptyState title="No publishers match" />}
      {shown.length > 0 && (
        <table class="table table--stack" id="publishers">
          <caption class="visually-hidden">Publishers</caption>
          <thead>
            <tr>
              <th scope="col">Publisher</th>
              <th scope="col">Status</th>
              <th scope="col">Revenue share</th>
              <th scope="col">Impressions</th>
              <th scope="col">Clicks</th>
              <th scope="col">Invalid share</th>
              <th scope="col">Unpaid balance</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((p) => {
              const t = traffic.get(p.id);
              return (
                <tr key={p.id}>
                  <th scope="row" data-label="Publisher">
                    <a href={href(`/console/publishers/${p.id}`)}>{p.name}</a>
                    <span class="table__sub">{p.email}</span>
                  </th>
                  <td data-label="Status">
                    <PublisherStatusBadge status={p.status} />
                  </td>
                  <td data-label="Revenue share">{formatPercent(p.revenue_share)}</td>
                  <td data-label="Impressions">{formatCount(t?.impressions ?? 0)}</td>
                  <td data-label="Clicks">{formatCount(t?.clicks ?? 0)}</td>
                  <td data-label="Invalid share">{formatPercent(t?.invalid_click_rate ?? 0)}</td>
                  <td data-label="Unpaid balance">
                    {balances.data ? (
                      <UnpaidBalance balances={balances.data} publisherId={p.id} />
                    ) : (
                      '…'
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </>
  );
}
