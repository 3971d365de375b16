import { useState } from 'preact/hooks';
import { adminApi, type Campaign, type CampaignStatus } from '../../admin-api';
import { ConfirmDialog } from '../../components/dialog';
import { LoadError, Loading, PageTitle } from '../../components/ui';
import { formatInstant, formatMoney } from '../../format';
import { href } from '../../router';
import { useLoad, useSession } from '../../session';
import { AdPreview } from './ad-preview';
import { CampaignReport } from './campaign-report';
import { CampaignStatusBadge, SpendBar } from './campaigns';
import { TryBox } from './try-box';

const ACTIONS: Record<CampaignStatus, { to: CampaignStatus; label: string; says: string }[]> = {
  active: [
    { to: 'paused', label: 'Pause', says: 'It stops being served at once.' },
    { to: 'archived', label: 'Archive', says: 'It stops being served and can never change again.' },
  ],
  paused: [
    { to: 'active', label: 'Resume', says: 'It is served again at once.' },
    { to: 'archived', label: 'Archive', says: 'It can never change again.' },
  ],
  archived: [],
};

/** One campaign: its state and actions, preview, "try a conversation", report and audit trail. */
export function CampaignPage({ id }: { id: string }) {
  const { notify } = useSession();
  const campaign = useLoad(() => adminApi.campaign(id), [id]);
  const [action, setAction] = useState<(typeof ACTIONS)['active'][number] | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const c = campaign.data;
  const confirm = () => {
    if (!action) return;
    setBusy(true);
    adminApi.updateCampaign(id, { status: action.to }).then(
      (updated) => {
        campaign.set(updated);
        notify(`Campaign ${action.to === 'active' ? 'resumed' : action.to}.`);
        setAction(null);
        setBusy(false);
      },
      (e: Error) => {
        setError(e.message);
        setBusy(false);
      },
    );
  };
  return (
    <>
      <nav class="breadcrumbs" aria-label="Breadcrumbs">
        <a href={href('/console/campaigns')}>Campaigns</a>
      </nav>
      <div class="page-head">
        <PageTitle title={c?.name ?? 'Campaign'}>{c?.name ?? 'Campaign'}</PageTitle>
        {c && (
          <div class="section-head__tools">
            {c.status !== 'archived' && (
              <a class="button" href={href(`/console/campaigns/${id}/edit`)}>
                Edit
              </a>
            )}
            {ACTIONS[c.status].map((a) => (
              <button
                key={a.to}
                type="button"
                class={a.to === 'archived' ? 'button button--danger-outline' : 'button'}
                onClick={() => {
                  setError(null);
                  setAction(a);
                }}
              >
                {a.label}
              </button>
            ))}
          </div>
        )}
      </div>
      {campaign.loading && !c && <Loading what="the campaign" />}
      {campaign.error && <LoadError error={campaign.error} onRetry={campaign.reload} />}
      {c && <Facts campaign={c} />}
      {c && <AdPreview ad={c} />}
      {c && <TryBox campaignId={id} keywords={c.keywords} />}
      {c && <CampaignReport id={id} name={c.name} />}
      {c && <AuditTrail id={id} status={c.status} />}
      {action && c && (
        <ConfirmDialog
          open
          title={`${action.label} ${c.name}?`}
          confirmLabel={action.label}
          danger={action.to === 'archived'}
          busy={busy}
          error={error}
          onConfirm={confirm}
          onCancel={() => setAction(null)}
        >
          <p>{action.says}</p>
        </ConfirmDialog>
      )}
    </>
  );
}

function Facts({ campaign: c }: { campaign: Campaign }) {
  return (
    <div class="card">
      <dl class="facts">
        <dt>Status</dt>
        <dd>
          <CampaignStatusBadge status={c.status} />
        </dd>
        <dt>Keywords</dt>
        <dd>{c.keywords.join(', ')}</dd>
        <dt>Bid per click</dt>
        <dd>{formatMoney(c.bid_per_click)}</dd>
        <dt>Spend</dt>
        <dd>
          <SpendBar campaign={c} />
        </dd>
        <dt>Daily budget</dt>
        <dd>
          {c.budget_daily === null
            ? 'None'
            : `${formatMoney(c.spent_today)} of ${formatMoney(c.budget_daily)} today`}
        </dd>
        <dt>Schedule</dt>
        <dd>
          {c.starts_at ? formatInstant(c.starts_at) : 'Now'} –{' '}
          {c.ends_at ? formatInstant(c.ends_at) : 'no end'}
        </dd>
        <dt>Targeting</dt>
        <dd>
          {c.countries.join(', ') || 'Every country'} · {c.devices.join(', ') || 'every device'}
        </dd>
      </dl>
    </div>
  );
}

const show = (value: unknown): string =>
  value === null || value === undefined
    ? '—'
    : typeof value === 'string'
      ? value
      : JSON.stringify(value);

function AuditTrail({ id, status }: { id: string; status: CampaignStatus }) {
  const audit = useLoad(() => adminApi.campaignAudit(id), [id, status]);
  return (
    <section class="card" aria-labelledby="audit-title">
      <h2 id="audit-title" class="section-title">
        Changes
      </h2>
      {audit.error && <LoadError error={audit.error} onRetry={audit.reload} />}
      {audit.data && (
        <ul class="facts" id="audit-trail">
          {audit.data.items.map((e) => (
            <li key={e.id}>
              {formatInstant(e.created_at)}:{' '}
              {e.field === null
                ? 'created'
                : `${e.field}: ${show(e.old_value)} → ${show(e.new_value)}`}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
