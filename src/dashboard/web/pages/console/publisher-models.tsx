import { useState } from 'preact/hooks';
import type { ModelStatus } from '../../api';
import { adminApi } from '../../admin-api';
import { ConfirmDialog } from '../../components/dialog';
import { LoadError, StatusBadge } from '../../components/ui';
import { addDays, isoDay } from '../../dates';
import { formatCount } from '../../format';
import { useLoad, useSession } from '../../session';

/**
 * The publisher's models with traffic in the last year (the operator API lists models only
 * in its reports, without their status); each can be deactivated or activated.
 */
export function PublisherModels({ publisherId }: { publisherId: string }) {
  const { notify } = useSession();
  const today = isoDay(new Date());
  const report = useLoad(() => adminApi.modelReport({ from: addDays(today, -365), to: today }), []);
  const [statuses, setStatuses] = useState<Record<string, ModelStatus>>({});
  const [change, setChange] = useState<{ id: string; name: string; to: ModelStatus } | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const models = report.data?.rows.filter((r) => r.publisher_id === publisherId) ?? [];
  const confirm = () => {
    if (!change) return;
    setBusy(true);
    adminApi.updateModel(change.id, change.to).then(
      (model) => {
        setStatuses((s) => ({ ...s, [model.id]: model.status }));
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
      <p class="muted">Models with traffic in the last year; a status shows once you change it.</p>
      {report.error && <LoadError error={report.error} onRetry={report.reload} />}
      {report.data && models.length === 0 && <p>No model of this publisher had traffic.</p>}
      {models.length > 0 && (
        <table class="table table--stack" id="publisher-models">
          <caption class="visually-hidden">Models</caption>
          <thead>
            <tr>
              <th scope="col">Model</th>
              <th scope="col">Impressions</th>
              <th scope="col">Status</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {models.map((m) => {
              const name = m.model_name ?? `Model ${m.model_id.slice(0, 8)}`;
              const status = statuses[m.model_id];
              return (
                <tr key={m.model_id}>
                  <th scope="row" data-label="Model">
                    {name}
                  </th>
                  <td data-label="Impressions">{formatCount(m.impressions)}</td>
                  <td data-label="Status">{status ? <StatusBadge status={status} /> : '—'}</td>
                  <td class="table__actions">
                    {(['deactivated', 'active'] as const).map((to) => (
                      <button
                        key={to}
                        type="button"
                        class="button button--small"
                        disabled={status === to}
                        onClick={() => {
                          setError(null);
                          setChange({ id: m.model_id, name, to });
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
