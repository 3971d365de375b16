import { useState } from 'preact/hooks';
import { type AdvertiserKey, adminApi } from '../../admin-api';
import { ConfirmDialog } from '../../components/dialog';
import { CopyButton, LoadError } from '../../components/ui';
import { formatInstant } from '../../format';
import { useLoad } from '../../session';

/** An advertiser's conversion API keys: a new key's secret is shown once; revoking asks first. */
export function AdvertiserKeys({ advertiserId }: { advertiserId: string }) {
  const keys = useLoad(() => adminApi.advertiserKeys(advertiserId), [advertiserId]);
  const [created, setCreated] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<AdvertiserKey | null>(null);
  const [error, setError] = useState<string | null>(null);
  // An older service has no advertiser keys: the section is left out.
  if (keys.error?.status === 404 && keys.error.code !== 'advertiser_not_found') return null;
  const create = () => {
    setError(null);
    adminApi.createAdvertiserKey(advertiserId, null).then(
      (key) => {
        setCreated(key.key);
        keys.reload();
      },
      (e: Error) => setError(e.message),
    );
  };
  return (
    <section aria-labelledby="advertiser-keys-title">
      <div class="section-head">
        <h3 id="advertiser-keys-title" class="section-title">
          Conversion API keys
        </h3>
        <button type="button" class="button button--small" onClick={create}>
          New key
        </button>
      </div>
      {error && (
        <p class="alert alert--error" role="alert">
          {error}
        </p>
      )}
      {created && (
        <div class="alert alert--warning secret" role="status">
          <p>Copy this key now: it is not shown again.</p>
          <code class="secret__value wrap-anywhere">{created}</code> <CopyButton text={created} />
        </div>
      )}
      {keys.error && <LoadError error={keys.error} onRetry={keys.reload} />}
      {keys.data && keys.data.keys.length === 0 && <p class="muted">No keys yet.</p>}
      {keys.data && keys.data.keys.length > 0 && (
        <ul class="facts">
          {keys.data.keys.map((key) => (
            <li key={key.id}>
              <code>{key.key_prefix}…</code> {key.label} · created {formatInstant(key.created_at)}{' '}
              {key.revoked_at ? (
                <span class="badge badge--revoked">Revoked</span>
              ) : (
                <button
                  type="button"
                  class="button button--small button--danger-outline"
                  onClick={() => setRevoking(key)}
                >
                  Revoke<span class="visually-hidden"> key {key.key_prefix}</span>
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {revoking && (
        <ConfirmDialog
          open
          title={`Revoke key ${revoking.key_prefix}…?`}
          confirmLabel="Revoke key"
          danger
          onCancel={() => setRevoking(null)}
          onConfirm={() =>
            void adminApi.revokeAdvertiserKey(advertiserId, revoking.id).then(
              () => {
                setRevoking(null);
                keys.reload();
              },
              (e: Error) => setError(e.message),
            )
          }
        >
          <p>Conversions sent with it are refused from now on.</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
