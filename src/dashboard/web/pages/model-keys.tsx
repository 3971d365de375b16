import { useState } from 'preact/hooks';
import { api, type ApiKey, type ApiKeyKind, type CreatedApiKey, type Model } from '../api';
import { Dialog, ConfirmDialog } from '../components/dialog';
import { FormError, TextField, toApiError, useFormAction } from '../components/form';
import { CopyButton, EmptyState, LoadError, Loading, StatusBadge } from '../components/ui';
import { formatInstant } from '../format';
import { takeNewKey } from '../new-key-handoff';
import { href } from '../router';
import { useLoad, useSession } from '../session';

export function KeysTab({ model }: { model: Model }) {
  const session = useSession();
  const keys = useLoad(() => api.keys(model.id), [model.id]);
  const [label, setLabel] = useState('');
  // Live unless chosen otherwise, as before test keys existed: a key deployed by mistake as a
  // test key would earn nothing.
  const [kind, setKind] = useState<ApiKeyKind>('live');
  const [created, setCreated] = useState<CreatedApiKey | null>(() => takeNewKey(model.id));
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const generate = useFormAction(async () => {
    const key = await api.createKey(model.id, label.trim() || null, kind);
    setLabel('');
    setCreated(key);
    keys.set([...(keys.data ?? []), key]);
  });
  return (
    <section aria-labelledby="keys-heading">
      <h2 id="keys-heading" class="section-title">
        API keys
      </h2>
      <p>
        Your backend sends a key in the <code>service-api-key</code> header of each fetch-ads call.
        Keep keys secret: never put them in a browser, an app or a repository.{' '}
        <a href={href(`/models/${model.id}/integration`)}>How to integrate</a>
      </p>
      <p>
        A <strong>test key</strong> (<code>adl_test_…</code>) gets real ads with working links, but
        nothing it serves or its users click is billed or earns: use it while you build. Switch to a{' '}
        <strong>live key</strong> (<code>adl_live_…</code>) in production.
      </p>
      {model.status === 'deactivated' && (
        <p class="alert alert--warning">
          This model is deactivated: its keys answer <code>404</code> until it is active again.
        </p>
      )}
      <form class="inline-form card" ref={generate.formRef} onSubmit={generate.onSubmit} noValidate>
        <FormError error={generate.error} />
        <div class="inline-form__row">
          <TextField
            id="key-label"
            label="Label for a new key"
            optional
            placeholder="e.g. production"
            hint="Tells keys apart, e.g. where the key is deployed."
            value={label}
            onValue={setLabel}
            maxLength={100}
            error={generate.error?.forField('label')}
          />
          <div class="field field--narrow">
            <label for="key-kind">Kind</label>
            <select
              id="key-kind"
              value={kind}
              onChange={(e) => setKind(e.currentTarget.value as ApiKeyKind)}
            >
              <option value="live">Live: billed, earns</option>
              <option value="test">Test: never billed</option>
            </select>
          </div>
          <button type="submit" class="button button--primary" disabled={generate.busy}>
            {generate.busy ? 'Generating…' : 'Generate key'}
          </button>
        </div>
      </form>
      {keys.loading && !keys.data && <Loading what="the keys" />}
      {keys.error && <LoadError error={keys.error} onRetry={keys.reload} />}
      {keys.data?.length === 0 && (
        <EmptyState title="No keys yet">
          <p>Generate a key above to start calling fetch-ads for this model.</p>
        </EmptyState>
      )}
      {keys.data && keys.data.length > 0 && (
        <table class="table table--stack">
          <caption class="visually-hidden">API keys of {model.name}</caption>
          <thead>
            <tr>
              <th scope="col">Key</th>
              <th scope="col">Kind</th>
              <th scope="col">Label</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">Status</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {keys.data.map((key) => (
              <tr key={key.id} class={key.status === 'revoked' ? 'table__row--muted' : undefined}>
                <th scope="row" data-label="Key">
                  <code>{key.prefix}…</code>
                </th>
                <td data-label="Kind">
                  <KindBadge kind={key.kind} />
                </td>
                <td data-label="Label">{key.label ?? <span class="muted">—</span>}</td>
                <td data-label="Created">{formatInstant(key.created_at)}</td>
                <td data-label="Last used">
                  {key.last_used_at ? (
                    formatInstant(key.last_used_at)
                  ) : (
                    <span class="muted">Never</span>
                  )}
                </td>
                <td data-label="Status">
                  <StatusBadge status={key.status} />
                </td>
                <td class="table__actions">
                  {key.status === 'active' && (
                    <button
                      type="button"
                      class="button button--small button--danger-outline"
                      aria-label={`Revoke key ${key.prefix}${key.label ? ` (${key.label})` : ''}`}
                      onClick={() => setRevoking(key)}
                    >
                      Revoke
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <NewKeyDialog created={created} onClose={() => setCreated(null)} />
      <RevokeDialog
        model={model}
        apiKey={revoking}
        onClose={() => setRevoking(null)}
        onRevoked={(revoked) => {
          setRevoking(null);
          keys.set((keys.data ?? []).map((k) => (k.id === revoked.id ? revoked : k)));
          session.notify(`Key ${revoked.prefix}… revoked.`);
        }}
      />
    </section>
  );
}

function KindBadge({ kind }: { kind: ApiKeyKind }) {
  return <span class={`badge badge--${kind}`}>{kind === 'test' ? 'Test' : 'Live'}</span>;
}

/**
 * The only time the secret is shown: the service keeps a hash of it, not the key. Escape and
 * the × button ask first, since a key closed unstored is lost.
 */
function NewKeyDialog({
  created,
  onClose,
}: {
  created: CreatedApiKey | null;
  onClose: () => void;
}) {
  const [asking, setAsking] = useState(false);
  const close = () => {
    setAsking(false);
    onClose();
  };
  const isTest = created?.kind === 'test';
  return (
    <Dialog
      open={created !== null}
      title={isTest ? 'Your new test key' : 'Your new API key'}
      labelId="new-key-title"
      onClose={() => setAsking(true)}
      closeButton
      actions={
        asking ? (
          <>
            <button type="button" class="button" autoFocus onClick={() => setAsking(false)}>
              Back to the key
            </button>
            <button type="button" class="button button--danger" onClick={close}>
              Close without the key
            </button>
          </>
        ) : (
          <button type="button" class="button button--primary" onClick={close}>
            I have stored the key
          </button>
        )
      }
    >
      {created && (
        <>
          <p class="dialog__kind" id="new-key-kind">
            <KindBadge kind={created.kind} />{' '}
            {isTest
              ? 'A test key: real ads and working links, but nothing is billed or earned.'
              : 'A live key: the ads it serves are billed and earn you money.'}
          </p>
          {asking ? (
            <p class="alert alert--error" role="alert" id="new-key-ask">
              <strong>Close without storing the key?</strong> It will not be shown again: without
              it, you will have to generate a new key.
            </p>
          ) : (
            <p class="alert alert--warning" role="alert">
              <strong>Copy this key now: it will not be shown again.</strong> Adline keeps only a
              hash of it. If you lose it, generate a new key and revoke this one.
            </p>
          )}
          <label for="new-key-secret" class="field__label">
            {isTest ? 'Test' : 'Live'} API key{created.label ? ` “${created.label}”` : ''}
          </label>
          <div class="secret">
            <textarea
              id="new-key-secret"
              class="secret__value"
              readOnly
              rows={2}
              spellcheck={false}
              value={created.key}
              onFocus={(e) => e.currentTarget.select()}
            />
            <CopyButton text={created.key} label="Copy key" />
          </div>
          <p class="field__hint">
            Store it in your backend's environment, e.g. <code>ADLINE_API_KEY</code>.
            {isTest && ' Use a live key in production.'}
          </p>
        </>
      )}
    </Dialog>
  );
}

function RevokeDialog(props: {
  model: Model;
  apiKey: ApiKey | null;
  onClose: () => void;
  onRevoked: (key: ApiKey) => void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const key = props.apiKey;
  const revoke = () => {
    if (!key) return;
    setBusy(true);
    setError(null);
    api
      .revokeKey(props.model.id, key.id)
      .then(() => props.onRevoked({ ...key, status: 'revoked' }))
      .catch((caught: unknown) => setError(toApiError(caught).message))
      .finally(() => setBusy(false));
  };
  return (
    <ConfirmDialog
      open={key !== null}
      title={`Revoke key ${key?.prefix ?? ''}…?`}
      confirmLabel="Revoke key"
      danger
      busy={busy}
      error={error}
      onConfirm={revoke}
      onCancel={() => {
        setError(null);
        props.onClose();
      }}
    >
      <p>
        Revoking is immediate and final: every fetch-ads call with this key
        {key?.label ? ` (“${key.label}”)` : ''} answers <code>404</code> from now on.
      </p>
      <p>Deploy a new key first if your backend still uses this one.</p>
    </ConfirmDialog>
  );
}
