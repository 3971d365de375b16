import { useState } from 'preact/hooks';
import type { ModelStatus } from '../../api';
import { adminApi } from '../../admin-api';
import { ConfirmDialog } from '../../components/dialog';
import { LoadError, Loading, StatusBadge } from '../../components/ui';
import { formatInstant } from '../../format';
import { useLoad, useSession } from '../../session';

/** Every model of the publisher with its status; each can be deactivated or activated. */
export function PublisherModels({ publisherId }: { publisherId: string }) {
  const { notify } = useSession();
  const list = useLoad(() => adminApi.publisherModels(publisherId), [publisherId]);
  const [change, setChange] = useState<{ id: string; name: string; to: ModelStatus } | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const models = list.data?.models ?? [];
  const confirm = () => {
    if (!change) return;
    setBusy(true);
    adminApi.updateModel(change.id, change.to).then(
      (model) => {
        list.set({ models: models.map((m) => (m.id === model.id ? model : m)) });
        notify(`${change.name} ${model.status === 'active' ? 'activated' : 'deactivated'}.`);
        setChange(null);
        setBusy(false);
      },
      (e: Error) => {
        setError(e.message);
        setBusy(false);
      },
    );
  };
  return (
    <section class="card" aria-labelledby="models-title">
      <h2 id="models-title" class="section-title">
        Models
      </h2>
      {list.loading && !list.data && <Loading what="the models" />}
      {list.error && <LoadError error={list.error} onRetry={list.reload} />}
      {list.data && models.length === 0 && <p>This publisher has no models.</p>}
      {models.length > 0 && (
        <table class="table table--stack" id="publisher-models">
          <caption class="visually-hidden">Models</caption>
          <thead>
            <tr>
              <th scope="col">Model</th>
              <th scope="col">Created</th>
              <th scope="col">Status</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {models.map((m) => {
              const { name, status } = m;
              return (
                <tr key={m.id}>
                  <th scope="row" data-label="Model">
                    {name}
                  </th>
                  <td data-label="Created">{formatInstant(m.created_at)}</td>
                  <td data-label="Status">
                    <StatusBadge status={status} />
                    {m.deactivated_by === 'operator' && (
                      <span class="table__sub">by an operator</span>
                    )}
                  </td>
                  <td class="table__actions">
                    {(['deactivated', 'active'] as const).map((to) => (
                      <button
                        key={to}
                        type="button"
                        class="button button--small"
                        disabled={status === to}
                        onClick={() => {
                          setError(null);
                          setChange({ id: m.id, name, to });
                        }}
                      >
                        {to === 'active' ? 'Activate' : 'Deactivate'}
                        <span class="visually-hidden"> {name}</span>
                      </button>
                    ))}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {change && (
        <ConfirmDialog
          open
          title={`${change.to === 'active' ? 'Activate' : 'Deactivate'} ${change.name}?`}
          confirmLabel={change.to === 'active' ? 'Activate' : 'Deactivate'}
          danger={change.to === 'deactivated'}
          busy={busy}
          error={error}
          onConfirm={confirm}
          onCancel={() => setChange(null)}
        >
          <p>
            {change.to === 'active'
              ? 'Its keys serve ads again.'
              : 'Its keys stop serving ads at once, and the publisher cannot reactivate it.'}
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}
