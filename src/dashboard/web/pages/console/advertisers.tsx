import { useMemo, useState } from 'preact/hooks';
import { type Advertiser, adminApi } from '../../admin-api';
import { ConfirmDialog } from '../../components/dialog';
import { FormError, requireValid, TextField, useFormAction } from '../../components/form';
import { EmptyState, LoadError, Loading, PageTitle } from '../../components/ui';
import { formatInstant } from '../../format';
import { href } from '../../router';
import { useLoad, useSession } from '../../session';
import { AdvertiserKeys } from './advertiser-keys';

/** Advertisers: search, filter by status, create, edit, deactivate and reactivate. */
export function AdvertisersPage() {
  const [status, setStatus] = useState('');
  const [search, setSearch] = useState('');
  const list = useLoad(() => adminApi.advertisers(status), [status]);
  const [editing, setEditing] = useState<Advertiser | 'new' | null>(null);
  const [toggling, setToggling] = useState<Advertiser | null>(null);
  const shown = useMemo(() => {
    const needle = search.trim().toLowerCase();
    return (list.data?.items ?? []).filter((a) =>
      `${a.name} ${a.contact_email ?? ''}`.toLowerCase().includes(needle),
    );
  }, [list.data, search]);
  return (
    <>
      <div class="page-head">
        <PageTitle title="Advertisers">Advertisers</PageTitle>
        <button type="button" class="button button--primary" onClick={() => setEditing('new')}>
          <span aria-hidden="true">+ </span>New advertiser
        </button>
      </div>
      {editing && (
        <AdvertiserForm
          advertiser={editing === 'new' ? null : editing}
          onDone={() => {
            setEditing(null);
            list.reload();
          }}
        />
      )}
      <div class="console-filters">
        <div class="field field--inline">
          <label for="advertiser-search">Search</label>
          <input
            id="advertiser-search"
            type="search"
            value={search}
            onInput={(e) => setSearch(e.currentTarget.value)}
          />
        </div>
        <StatusFilter
          id="advertiser-status"
          value={status}
          onValue={setStatus}
          statuses={['active', 'inactive']}
        />
      </div>
      {list.loading && !list.data && <Loading what="advertisers" />}
      {list.error && <LoadError error={list.error} onRetry={list.reload} />}
      {list.data && shown.length === 0 && <EmptyState title="No advertisers match" />}
      {shown.length > 0 && (
        <table class="table table--stack">
          <caption class="visually-hidden">Advertisers</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Status</th>
              <th scope="col">Created</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {shown.map((a) => (
              <tr key={a.id}>
                <th scope="row" data-label="Name">
                  {a.name}
                  {a.contact_email && <span class="table__sub">{a.contact_email}</span>}
                </th>
                <td data-label="Status">
                  <span class={`badge badge--${a.status === 'active' ? 'active' : 'deactivated'}`}>
                    {a.status === 'active' ? 'Active' : 'Inactive'}
                  </span>
                </td>
                <td data-label="Created">{formatInstant(a.created_at)}</td>
                <td class="table__actions">
                  <a
                    class="button button--small"
                    href={href(`/console/campaigns?advertiser=${a.id}`)}
                  >
                    Campaigns<span class="visually-hidden"> of {a.name}</span>
                  </a>
                  <button type="button" class="button button--small" onClick={() => setEditing(a)}>
                    Edit<span class="visually-hidden"> {a.name}</span>
                  </button>
                  <button type="button" class="button button--small" onClick={() => setToggling(a)}>
                    {a.status === 'active' ? 'Deactivate' : 'Reactivate'}
                    <span class="visually-hidden"> {a.name}</span>
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {toggling && (
        <ToggleAdvertiser
          advertiser={toggling}
          onDone={() => {
            setToggling(null);
            list.reload();
          }}
        />
      )}
    </>
  );
}

/** A status choice for a list's filter; "" is every status. */
export function StatusFilter(props: {
  id: string;
  value: string;
  onValue: (v: string) => void;
  statuses: string[];
}) {
  return (
    <div class="field field--inline">
      <label for={props.id}>Status</label>
      <select
        id={props.id}
        value={props.value}
        onChange={(e) => props.onValue(e.currentTarget.value)}
      >
        <option value="">Any</option>
        {props.statuses.map((s) => (
          <option key={s} value={s}>
            {s[0].toUpperCase() + s.slice(1)}
          </option>
        ))}
      </select>
    </div>
  );
}

function AdvertiserForm({
  advertiser,
  onDone,
}: {
  advertiser: Advertiser | null;
  onDone: () => void;
}) {
  const { notify } = useSession();
  const [name, setName] = useState(advertiser?.name ?? '');
  const [email, setEmail] = useState(advertiser?.contact_email ?? '');
  const form = useFormAction(async () => {
    requireValid({ name: name.trim() ? null : 'Enter a name.' });
    const input = { name: name.trim(), contact_email: email.trim() || null };
    if (advertiser) await adminApi.updateAdvertiser(advertiser.id, input);
    else await adminApi.createAdvertiser(input);
    notify(advertiser ? 'Advertiser saved.' : `Advertiser ${input.name} created.`);
    onDone();
  });
  return (
    <div class="card">
      <form ref={form.formRef} class="form" onSubmit={form.onSubmit} noValidate>
        <h2 class="section-title">{advertiser ? `Edit ${advertiser.name}` : 'New advertiser'}</h2>
        <FormError error={form.error} />
        <TextField
          id="name"
          label="Name"
          value={name}
          onValue={setName}
          error={form.error?.forField('name')}
          maxLength={200}
        />
        <TextField
          id="contact_email"
          label="Contact e-mail"
          type="email"
          optional
          value={email}
          onValue={setEmail}
          error={form.error?.forField('contact_email')}
        />
        <div class="form__actions">
          <button type="submit" class="button button--primary" disabled={form.busy}>
            {advertiser ? 'Save advertiser' : 'Create advertiser'}
          </button>
          <button type="button" class="button" onClick={onDone}>
            Cancel
          </button>
        </div>
      </form>
      {advertiser && <AdvertiserKeys advertiserId={advertiser.id} />}
    </div>
  );
}

function ToggleAdvertiser({ advertiser, onDone }: { advertiser: Advertiser; onDone: () => void }) {
  const { notify } = useSession();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const deactivate = advertiser.status === 'active';
  const confirm = () => {
    setBusy(true);
    adminApi.updateAdvertiser(advertiser.id, { status: deactivate ? 'inactive' : 'active' }).then(
      () => {
        notify(deactivate ? `${advertiser.name} deactivated.` : `${advertiser.name} reactivated.`);
        onDone();
      },
      (e: Error) => {
        setBusy(false);
        setError(e.message);
      },
    );
  };
  return (
    <ConfirmDialog
      open
      title={deactivate ? `Deactivate ${advertiser.name}?` : `Reactivate ${advertiser.name}?`}
      confirmLabel={deactivate ? 'Deactivate' : 'Reactivate'}
      danger={deactivate}
      busy={busy}
      error={error}
      onConfirm={confirm}
      onCancel={onDone}
    >
      <p>
        {deactivate
          ? 'Its campaigns stop being served at once. You can reactivate it later.'
          : 'Its active campaigns are served again.'}
      </p>
    </ConfirmDialog>
  );
}
