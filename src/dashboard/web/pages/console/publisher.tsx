import { useState } from 'preact/hooks';
import {
  adminApi,
  allPublishers,
  type OperatorPublisher,
  type PublisherStatus,
} from '../../admin-api';
import { ConfirmDialog } from '../../components/dialog';
import { FormError, requireValid, TextField, useFormAction } from '../../components/form';
import { LoadError, Loading, PageTitle } from '../../components/ui';
import { lastDays } from '../../dates';
import { formatCount, formatInstant, formatPercent } from '../../format';
import { href } from '../../router';
import { useLoad, useSession } from '../../session';
import { PublisherModels } from './publisher-models';
import { PublisherPayouts } from './publisher-payouts';
import { PublisherStatusBadge, UnpaidBalance } from './publishers';

const plural = (n: number, what: string) => `${formatCount(n)} ${what}${n === 1 ? '' : 's'}`;

const STATUS_NAMES: Record<PublisherStatus, string> = {
  active: 'Active',
  suspended: 'Suspended',
};

/** One publisher: revenue share, suspension and its trail, its models and its payouts. */
export function PublisherPage({ id }: { id: string }) {
  const { notify } = useSession();
  // Every account, operators included: the audit names the operator behind each change.
  const accounts = useLoad(() => allPublishers(), [id]);
  const publisher = {
    ...accounts,
    data: accounts.data ? (accounts.data.find((a) => a.id === id) ?? null) : undefined,
    set: (updated: OperatorPublisher) =>
      accounts.set((accounts.data ?? []).map((a) => (a.id === updated.id ? updated : a))),
  };
  const report = useLoad(() => adminApi.publisherReport(lastDays(30)), [id]);
  const balances = useLoad(() => adminApi.balances(), [id]);
  const audit = useLoad(() => adminApi.publisherAudit(id), [id]);
  const [toggling, setToggling] = useState(false);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const p = publisher.data;
  const t = report.data?.rows.find((r) => r.publisher_id === id);
  const suspend = p?.status === 'active';
  const confirm = () => {
    if (!p) return;
    if (!reason.trim()) {
      setError(`Enter why the publisher is ${suspend ? 'suspended' : 'reactivated'}.`);
      return;
    }
    setBusy(true);
    adminApi
      .updatePublisher(id, { status: suspend ? 'suspended' : 'active', reason: reason.trim() })
      .then(
        (updated) => {
          publisher.set(updated);
          audit.reload();
          notify(suspend ? `${updated.name} suspended.` : `${updated.name} reactivated.`);
          setToggling(false);
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
        <a href={href('/console/publishers')}>Publishers</a>
      </nav>
      <div class="page-head">
        <PageTitle title={p?.name ?? 'Publisher'}>{p?.name ?? 'Publisher'}</PageTitle>
        {p && (
          <button
            type="button"
            class={suspend ? 'button button--danger-outline' : 'button'}
            onClick={() => {
              setError(null);
              setReason('');
              setToggling(true);
            }}
          >
            {suspend ? 'Suspend' : 'Reactivate'}
          </button>
        )}
      </div>
      {publisher.loading && !p && <Loading what="the publisher" />}
      {publisher.error && <LoadError error={publisher.error} onRetry={publisher.reload} />}
      {publisher.data === null && !publisher.loading && <p>There is no publisher with this id.</p>}
      {p && (
        <div class="card">
          <dl class="facts">
            <dt>E-mail</dt>
            <dd>{p.email}</dd>
            <dt>Status</dt>
            <dd id="publisher-status">
              <PublisherStatusBadge status={p.status} />
            </dd>
            <dt>Revenue share</dt>
            <dd id="publisher-share">{formatPercent(p.revenue_share)}</dd>
            <dt>Last 30 days</dt>
            <dd>
              {plural(t?.impressions ?? 0, 'impression')}, {plural(t?.clicks ?? 0, 'click')},{' '}
              {formatPercent(t?.invalid_click_rate ?? 0)} of clicks invalid
            </dd>
            <dt>Unpaid balance</dt>
            <dd id="publisher-balance">
              {balances.data ? <UnpaidBalance balances={balances.data} publisherId={id} /> : '…'}
            </dd>
          </dl>
        </div>
      )}
      {p && <RevenueShareForm publisher={p} onSaved={publisher.set} />}
      {p && <PublisherModels publisherId={id} />}
      {p && <PublisherPayouts publisherId={id} onChange={balances.reload} />}
      {p && (
        <section class="card" aria-labelledby="audit-title">
          <h2 id="audit-title" class="section-title">
            Status changes
          </h2>
          {audit.error && <LoadError error={audit.error} onRetry={audit.reload} />}
          {audit.data && audit.data.entries.length === 0 && (
            <p>This publisher's status has never changed.</p>
          )}
          {audit.data && audit.data.entries.length > 0 && (
            <table class="table table--stack" id="publisher-audit">
              <caption class="visually-hidden">Status changes, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Change</th>
                  <th scope="col">By</th>
                  <th scope="col">Reason</th>
                </tr>
              </thead>
              <tbody>
                {audit.data.entries.map((entry) => {
                  const actor = accounts.data?.find((a) => a.id === entry.actor_id);
                  return (
                    <tr key={entry.id}>
                      <th scope="row" data-label="When">
                        {formatInstant(entry.created_at)}
                      </th>
                      <td data-label="Change">
                        {STATUS_NAMES[entry.from_status]} → {STATUS_NAMES[entry.to_status]}
                      </td>
                      <td data-label="By">
                        {actor ? actor.email : entry.actor_id ? 'A former account' : 'Adline'}
                      </td>
                      <td data-label="Reason">{entry.reason ?? '—'}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          )}
        </section>
      )}
      {toggling && p && (
        <ConfirmDialog
          open
          title={`${suspend ? 'Suspend' : 'Reactivate'} ${p.name}?`}
          confirmLabel={suspend ? 'Suspend' : 'Reactivate'}
          danger={suspend}
          busy={busy}
          error={error}
          onConfirm={confirm}
          onCancel={() => setToggling(false)}
        >
          <p>
            {suspend
              ? 'They can no longer sign in, and their keys stop serving ads at once.'
              : 'They can sign in again, and their active models serve ads again.'}
          </p>
          <TextField
            id="status-reason"
            label="Reason"
            multiline
            maxLength={500}
            value={reason}
            onValue={setReason}
            hint="Kept in the publisher's status changes."
          />
        </ConfirmDialog>
      )}
    </>
  );
}

/** The share as a percentage with up to 4 decimals (the API keeps 6 as a fraction). */
function RevenueShareForm(props: {
  publisher: OperatorPublisher;
  onSaved: (p: OperatorPublisher) => void;
}) {
  const { notify } = useSession();
  const [share, setShare] = useState(String(+(props.publisher.revenue_share * 100).toFixed(4)));
  const form = useFormAction(async () => {
    const percent = Number(share);
    requireValid({
      revenue_share:
        share.trim() !== '' && percent >= 0 && percent <= 100
          ? null
          : 'Enter a share from 0 to 100 %.',
    });
    const updated = await adminApi.updatePublisher(props.publisher.id, {
      revenue_share: Math.round(percent * 1e4) / 1e6,
    });
    props.onSaved(updated);
    notify(`Revenue share set to ${formatPercent(updated.revenue_share)}.`);
  });
  return (
    <section class="card" aria-labelledby="share-title">
      <form ref={form.formRef} class="form" onSubmit={form.onSubmit} noValidate>
        <h2 id="share-title" class="section-title">
          Revenue share
        </h2>
        <FormError error={form.error} />
        <TextField
          id="revenue_share"
          label="Revenue share (%)"
          type="number"
          value={share}
          onValue={setShare}
          hint="The publisher's part of each billed click; applies to the next impression."
          error={form.error?.forField('revenue_share')}
        />
        <div class="form__actions">
          <button type="submit" class="button button--primary" disabled={form.busy}>
            Save share
          </button>
        </div>
      </form>
    </section>
  );
}
