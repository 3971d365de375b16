import { useState } from 'preact/hooks';
import { type Campaign, adminApi } from '../../admin-api';
import { EmptyState, LoadError, Loading, PageTitle } from '../../components/ui';
import { formatMoney } from '../../format';
import { href, type Route } from '../../router';
import { useLoad } from '../../session';
import { StatusFilter } from './advertisers';

/** Campaigns filtered by status, advertiser and keyword, with spend against budget. */
export function CampaignsPage({ route }: { route: Route }) {
  const [status, setStatus] = useState('');
  const [advertiser, setAdvertiser] = useState(route.query.get('advertiser') ?? '');
  const [keyword, setKeyword] = useState('');
  const advertisers = useLoad(() => adminApi.advertisers(), []);
  const list = useLoad(
    () => adminApi.campaigns({ status, advertiser_id: advertiser, keyword: keyword.trim() }),
    [status, advertiser, keyword],
  );
  const names = new Map((advertisers.data?.items ?? []).map((a) => [a.id, a.name]));
  return (
    <>
      <div class="page-head">
        <PageTitle title="Campaigns">Campaigns</PageTitle>
        <a
          class="button button--primary"
          href={href(`/console/campaigns/new${advertiser ? `?advertiser=${advertiser}` : ''}`)}
        >
          <span aria-hidden="true">+ </span>New campaign
        </a>
      </div>
      <div class="console-filters">
        <StatusFilter
          id="campaign-status"
          value={status}
          onValue={setStatus}
          statuses={['active', 'paused', 'archived']}
        />
        <div class="field field--inline">
          <label for="campaign-advertiser">Advertiser</label>
          <select
            id="campaign-advertiser"
            value={advertiser}
            onChange={(e) => setAdvertiser(e.currentTarget.value)}
          >
            <option value="">Any</option>
            {advertisers.data?.items.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
              </option>
            ))}
          </select>
        </div>
        <div class="field field--inline">
          <label for="campaign-keyword">Keyword</label>
          <input
            id="campaign-keyword"
            type="search"
            value={keyword}
            onChange={(e) => setKeyword(e.currentTarget.value)}
          />
        </div>
      </div>
      {list.loading && !list.data && <Loading what="campaigns" />}
      {list.error && <LoadError error={list.error} onRetry={list.reload} />}
      {list.data?.items.length === 0 && <EmptyState title="No campaigns match" />}
      {list.data && list.data.items.length > 0 && (
        <table class="table table--stack">
          <caption class="visually-hidden">Campaigns</caption>
          <thead>
            <tr>
              <th scope="col">Campaign</th>
              <th scope="col">Status</th>
              <th scope="col">Bid</th>
              <th scope="col">Spend of budget</th>
            </tr>
          </thead>
          <tbody>
            {list.data.items.map((c) => (
              <tr key={c.id}>
                <th scope="row" data-label="Campaign">
                  <a href={href(`/console/campaigns/${c.id}`)}>{c.name}</a>
                  <span class="table__sub">
                    {names.get(c.advertiser_id) ?? ''} · {c.keywords.slice(0, 4).join(', ')}
                  </span>
                </th>
                <td data-label="Status">
                  <CampaignStatusBadge status={c.status} />
                </td>
                <td data-label="Bid">{formatMoney(c.bid_per_click)}</td>
                <td data-label="Spend of budget">
                  <SpendBar campaign={c} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

export function CampaignStatusBadge({ status }: { status: Campaign['status'] }) {
  const look = status === 'active' ? 'active' : status === 'paused' ? 'pending' : 'deactivated';
  return <span class={`badge badge--${look}`}>{status[0].toUpperCase() + status.slice(1)}</span>;
}

/** What a campaign spent, as a bar against its total budget when it has one. */
export function SpendBar({
  campaign,
}: {
  campaign: Pick<Campaign, 'spent' | 'budget_total' | 'name'>;
}) {
  const { spent, budget_total: budget } = campaign;
  if (budget === null) return <span>{formatMoney(spent)} (no total budget)</span>;
  return (
    <span>
      {formatMoney(spent)} of {formatMoney(budget)}
      <progress
        class="spend"
        max={budget}
        value={Math.min(spent, budget)}
        aria-label={`Spend of ${campaign.name}`}
      />
    </span>
  );
}
