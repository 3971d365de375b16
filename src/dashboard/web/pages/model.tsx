import { useState } from 'preact/hooks';
import { api, type Model } from '../api';
import { toApiError } from '../components/form';
import { ConfirmDialog } from '../components/dialog';
import { LoadError, Loading, PageTitle, StatusBadge } from '../components/ui';
import { href } from '../router';
import { useLoad, useSession } from '../session';
import { IntegrationTab } from './model-integration';
import { KeysTab } from './model-keys';
import { SettingsTab } from './model-settings';

export type ModelTab = 'keys' | 'settings' | 'integration';

const TABS: { id: ModelTab; label: string }[] = [
  { id: 'keys', label: 'API keys' },
  { id: 'settings', label: 'Settings' },
  { id: 'integration', label: 'Integration' },
];

export function ModelPage({ modelId, tab }: { modelId: string; tab: ModelTab }) {
  const model = useLoad(() => api.model(modelId), [modelId]);
  if (model.loading && !model.data) return <Loading what="the model" />;
  if (model.error) {
    return (
      <>
        <PageTitle title="Model not found">
          {model.error.status === 404 ? 'Model not found' : 'The model could not be loaded'}
        </PageTitle>
        {model.error.status === 404 ? (
          <p>
            No model of yours has this address. <a href={href('/models')}>Back to your models</a>
          </p>
        ) : (
          <LoadError error={model.error} onRetry={model.reload} />
        )}
      </>
    );
  }
  if (!model.data) return null;
  const current = model.data;
  const tabLabel = TABS.find((t) => t.id === tab)?.label ?? '';
  return (
    <>
      <nav class="breadcrumbs" aria-label="Breadcrumb">
        <a href={href('/models')}>AI models</a> <span aria-hidden="true">›</span> {current.name}
      </nav>
      <div class="page-head">
        <PageTitle title={`${tabLabel} · ${current.name}`}>
          {current.name} <StatusBadge status={current.status} />
        </PageTitle>
        <StatusControl model={current} onChanged={model.set} />
      </div>
      <nav class="tabs" aria-label="Model sections">
        {TABS.map((t) => (
          <a
            key={t.id}
            class="tabs__tab"
            href={href(`/models/${current.id}/${t.id}`)}
            aria-current={t.id === tab ? 'page' : undefined}
          >
            {t.label}
          </a>
        ))}
      </nav>
      {tab === 'keys' && <KeysTab model={current} />}
      {tab === 'settings' && <SettingsTab model={current} onSaved={model.set} />}
      {tab === 'integration' && <IntegrationTab model={current} />}
    </>
  );
}

/** Activate / deactivate, always after a confirmation: it changes what the keys answer. */
function StatusControl({ model, onChanged }: { model: Model; onChanged: (m: Model) => void }) {
  const session = useSession();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const activating = model.status === 'deactivated';
  const lockedByOperator = activating && model.deactivated_by === 'operator';
  const confirm = () => {
    setBusy(true);
    setError(null);
    api
      .updateModel(model.id, { status: activating ? 'active' : 'deactivated' })
      .then((updated) => {
        setOpen(false);
        onChanged(updated);
        session.notify(
          activating ? `“${updated.name}” is active again.` : `“${updated.name}” is deactivated.`,
        );
      })
      .catch((caught: unknown) => setError(toApiError(caught).message))
      .finally(() => setBusy(false));
  };
  if (lockedByOperator) {
    return (
      <p class="page-head__note">
        An operator deactivated this model; contact support to activate it again.
      </p>
    );
  }
  return (
    <>
      <button
        type="button"
        class={activating ? 'button button--primary' : 'button button--danger-outline'}
        onClick={() => {
          setError(null);
          setOpen(true);
        }}
      >
        {activating ? 'Activate model' : 'Deactivate model'}
      </button>
      <ConfirmDialog
        open={open}
        title={activating ? `Activate “${model.name}”?` : `Deactivate “${model.name}”?`}
        confirmLabel={activating ? 'Activate' : 'Deactivate'}
        danger={!activating}
        busy={busy}
        error={error}
        onConfirm={confirm}
        onCancel={() => setOpen(false)}
      >
        {activating ? (
          <p>Its active API keys will serve ads again at once.</p>
        ) : (
          <>
            <p>
              From now on, every fetch-ads call with this model's keys answers <code>404</code> (
              <code>model_inactive</code>), so your AI replies go out without ads and earn nothing.
            </p>
            <p>The keys are kept: you can activate the model again at any time.</p>
          </>
        )}
      </ConfirmDialog>
    </>
  );
}
